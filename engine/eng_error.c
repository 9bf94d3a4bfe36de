/* eng_error.c — the error table's text and the diagnostic helpers. */
#include "eng_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *eng_strerror(int code)
{
    switch (code) {
#define ENG_ERR_TEXT(name, c, text)                                                                \
    case (c):                                                                                      \
        return text;
        ENG_ERRORS(ENG_ERR_TEXT)
#undef ENG_ERR_TEXT
    }
    return "unknown error";
}

const char *eng_errname(int code)
{
    switch (code) {
#define ENG_ERR_NAME(name, c, text)                                                                \
    case (c):                                                                                      \
        return "ENG_" #name;
        ENG_ERRORS(ENG_ERR_NAME)
#undef ENG_ERR_NAME
    }
    return "ENG_UNKNOWN";
}

void eng_diag_clear(eng_diag *d)
{
    if (!d)
        return;
    d->code = 0;
    d->msg[0] = '\0';
}

int eng_diag_set(eng_diag *d, int code, const char *fmt, ...)
{
    if (!d || d->code != 0)
        return code;
    d->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    return code;
}

int eng_diag_prefix(eng_diag *d, const char *fmt, ...)
{
    if (!d)
        return 0;
    char head[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    size_t hn = strlen(head), mn = strlen(d->msg);
    if (hn >= sizeof d->msg)
        hn = sizeof d->msg - 1;
    if (hn + mn >= sizeof d->msg)
        mn = sizeof d->msg - 1 - hn;
    memmove(d->msg + hn, d->msg, mn);
    memcpy(d->msg, head, hn);
    d->msg[hn + mn] = '\0';
    return d->code;
}
