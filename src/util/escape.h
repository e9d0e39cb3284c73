/* Text from input files and the command line, written where it could do
 * harm: on a terminal (an escape sequence in a NodeDescription would drive
 * it), or inside a CSV field, a DOT, YAML, XML or JSON string (where a quote
 * would end the string). One rule for every context, applied by one
 * function (ry_escape):
 *
 *  - a control byte (C0 and DEL), a C1 control written in UTF-8 (U+0080 to
 *    U+009F, which some terminals obey as CSI and OSC) and every byte that
 *    is not part of valid UTF-8 is shown as the four characters \xNN
 *    (lower-case hex), except the line breaks and tabs the context keeps
 *    (below);
 *  - then the context's own quoting: CSV doubles quotes and quotes the field
 *    when it holds a comma, quote or line break (RFC 4180); DOT and JSON
 *    put a backslash before quotes and backslashes (the \ of \xNN too);
 *    YAML the same inside a double-quoted scalar; XML writes &amp; &lt;
 *    &gt; &quot; &#39; (Graphviz's HTML-like labels read them too);
 *    GNUPLOT writes a whole single-quoted string, a quote doubled inside
 *    (gnuplot expands neither backquotes nor @ macros nor backslashes
 *    there, as it does inside double quotes); SHELL a whole word for
 *    sh(1), as it is when every byte is one of A-Z a-z 0-9 _ . / : = @ % +
 *    , - and else in single quotes, a quote inside written '\''.
 *
 * What each context keeps as it is:
 *   TERM  nothing: a name on one line (newline and tab shown as \x0a, \x09)
 *   TEXT  newline and tab (a message of several lines)
 *   CSV   tab, CR and LF (inside a quoted field)
 *   DOT   newline as \n (a line break in a label)
 *   YAML  newline, tab and CR as \n, \t, \r
 *   XML   newline and tab (CR as &#13;)
 *   JSON  newline, tab and CR as \n, \t, \r
 *   LINE  nothing: TERM's rule, for one line of a config file or a
 *         script's comment (an FRR description runs to the line's end)
 *   GNUPLOT  newline, CR and tab each as one space (a title on one line)
 *   SHELL nothing: a word on one line
 * Valid UTF-8 other than C1 controls is copied unchanged, so names in any
 * script survive. No output of railyard depends on a hash or a locale here:
 * the same input gives the same bytes. */
#ifndef RY_ESCAPE_H
#define RY_ESCAPE_H

#include <stdarg.h>
#include <stddef.h>

#include "util/buf.h"

typedef enum ry_esc {
    RY_ESC_TERM,
    RY_ESC_TEXT,
    RY_ESC_CSV,
    RY_ESC_DOT,
    RY_ESC_YAML,
    RY_ESC_XML,
    RY_ESC_JSON,
    RY_ESC_LINE,
    RY_ESC_GNUPLOT,
    RY_ESC_SHELL
} ry_esc;

/* The n bytes at s, escaped for how, appended to b. CSV, GNUPLOT and
 * SHELL append a whole field, string or word (with its quotes); the others
 * the inside of a string, without the quotes around it. */
void ry_escape(ry_buf *b, const char *s, size_t n, ry_esc how);

/* The same for a NUL-terminated string. */
void ry_escape_str(ry_buf *b, const char *s, ry_esc how);

/* s escaped for how into buf (capacity cap >= 1), cut at a character
 * boundary when it does not fit. Returns buf. */
const char *ry_escape_to(char *buf, size_t cap, const char *s, ry_esc how);

/* A printf-style message escaped for how (TEXT for a message to print). */
void ry_escape_vprintf(ry_buf *b, ry_esc how, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
