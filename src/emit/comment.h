/* "# " comment blocks for the configuration files railyard writes (Slurm's,
 * Kubernetes YAML): text wrapped at spaces to lines of at most 78 columns;
 * "\n" ends a line, an empty line becomes "#". */
#ifndef RY_EMIT_COMMENT_H
#define RY_EMIT_COMMENT_H

#include <stdio.h>

void ry_put_comment(FILE *fp, const char *text);

#endif
