# Writes OUT (a C header defining BATCHLAB_GIT_COMMIT) from `git describe`,
# touching it only when the commit changed, so the manifest of every run
# names the commit the binary was built from (with -dirty for local edits).
execute_process(COMMAND git describe --always --dirty --abbrev=12
                WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET)
if(NOT commit)
  set(commit "unknown")
endif()
set(content "#define BATCHLAB_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
else()
  set(old "")
endif()
if(NOT old STREQUAL content)
  file(WRITE ${OUT} "${content}")
endif()
