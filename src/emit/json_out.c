#include "emit/json_out.h"

#include <stdlib.h>

#include "util/diag.h"

void ry_json_out(ry_buf *o, json_t *j, int precision)
{
    size_t flags = JSON_INDENT(2) | JSON_PRESERVE_ORDER;
    if (precision > 0)
        flags |= JSON_REAL_PRECISION(precision);
    ry_json_out_flags(o, j, flags);
}

void ry_json_out_flags(ry_buf *o, json_t *j, size_t flags)
{
    char *s = json_dumps(j, flags);
    RY_ASSERT(s != NULL);
    ry_buf_puts(o, s);
    ry_buf_putc(o, '\n');
    free(s);
    json_decref(j);
}
