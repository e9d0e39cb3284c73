/* Comment blocks of the generated configuration files (see comment.h). */
#include "emit/comment.h"

#include <string.h>

/* Writes text as "# " comment lines of at most 78 columns. */
void ry_put_comment(FILE *fp, const char *text)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len == 0) {
            fputs("#\n", fp);
        } else {
            while (len > 0) {
                size_t take = len;
                if (take > 76) {
                    take = 76;
                    while (take > 0 && p[take] != ' ')
                        take--;
                    if (take == 0)
                        take = 76;
                }
                fprintf(fp, "# %.*s\n", (int)take, p);
                p += take;
                len -= take;
                while (len > 0 && *p == ' ')
                    p++, len--;
            }
        }
        p += len + (nl ? 1 : 0);
        if (!nl)
            break;
    }
}
