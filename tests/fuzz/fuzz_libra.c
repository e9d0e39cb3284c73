/* LIBRA's inputs: the first byte picks what the rest is. 'a': an ASTRA-sim
 * workload file (libra.workload_file); anything else: one constraint
 * expression (libra.constraints), on the 4-D network of the examples. */
#include "fuzz.h"

#include <stdlib.h>

#include "model/libra.h"
#include "util/buf.h"

static const char net4[] =
    "version: 1\nname: fuzz\ncluster: {gpus: 4096, node: dgx-h100}\n"
    "network:\n  dims:\n"
    "    - {name: package, block: ring, size: 4, tech: chiplet}\n"
    "    - {name: node, block: fully-connected, size: 8, tech: package}\n"
    "    - {name: pod, block: ring, size: 4, tech: node}\n"
    "    - {name: scale_out, block: switch, size: 32, tech: pod}\n"
    "libra:\n  budget: 1000\n";

static const char layers[] =
    "  layers:\n    - name: mlp\n      count: 4\n"
    "      forward: {compute: 4.6, collective: all-reduce, bytes: 301989888}\n"
    "      input_grad: {compute: 4.6, collective: all-reduce, bytes: 301989888}\n"
    "      weight_grad: {compute: 4.6, collective: all-reduce, bytes: 150994944}\n";

/* A YAML double-quoted string holding exactly the bytes given. */
static void yaml_quoted(ry_buf *b, const uint8_t *p, size_t n)
{
    ry_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\')
            ry_buf_putc(b, (char)p[i]);
        else
            ry_buf_printf(b, "\\x%02x", p[i]);
    }
    ry_buf_putc(b, '"');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    ry_buf spec;
    ry_buf_init(&spec);
    ry_buf_puts(&spec, net4);
    char wpath[64] = "";
    int wfd = -1;
    if (data[0] == 'a') {
        wfd = fuzz_file(data + 1, size - 1, wpath, sizeof wpath);
        if (wfd < 0) {
            ry_buf_free(&spec);
            return 0;
        }
        ry_buf_printf(&spec, "  workload_file: %s\n", wpath);
    } else {
        ry_buf_puts(&spec, "  constraints:\n    - ");
        yaml_quoted(&spec, data + 1, size - 1);
        ry_buf_puts(&spec, "\n");
        ry_buf_puts(&spec, layers);
    }
    fuzz_spec fs;
    ry_spec *s = fuzz_spec_input(&fs, (const uint8_t *)spec.data, spec.len);
    if (s) {
        ry_libra_problem p;
        ry_libra_problem_init(&p);
        if (ry_libra_problem_build(s, &p) == 0) {
            ry_libra_result r;
            ry_libra_solve(&p, &r);
            ry_libra_result_free(&r);
        }
        ry_libra_problem_free(&p);
    }
    fuzz_spec_free(&fs);
    if (wfd >= 0)
        close(wfd);
    ry_buf_free(&spec);
    fuzz_done();
    return 0;
}
