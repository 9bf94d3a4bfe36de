/* study.h — the paper studies that are not replays: each reproduces a
 * paper's own experiment (its generators, its algorithms called directly
 * through their public headers, its tables) and prints the paper's numbers
 * beside ours. They are run by the program `batchlab-study NAME [options]`
 * (study_main.c), which bench/NAME-study.sh drives; the command line
 * (tools/) knows nothing of them.
 *
 * One file per study, bench/studies/study_NAME.c, defining
 *     int study_NAME(int argc, char **argv);   argv[0] is "NAME"
 *     const char study_NAME_summary[];         one line, for --help
 * CMake generates the table of studies (study_table.h, one STUDY(NAME) per
 * file) from the file names. A study parses its options with cli_args.h
 * (messages name "batchlab-study NAME"), returns the exit status (0; 1 bad
 * input; 2 usage error) and writes its JSON with eng_json_write.
 */
#ifndef STUDY_H
#define STUDY_H

#define STUDY(name)                                                                                \
    int study_##name(int argc, char **argv);                                                       \
    extern const char study_##name##_summary[];
#include "study_table.h"
#undef STUDY

#endif
