/* The values a spec key takes over a grid of points (sweep --vary, search
 * --vary and a spec's search.vary): a list as written, or ranges A..B
 * (A, 2A, 4A, ... up to B), A..B+STEP and A..B*FACTOR expanded. */
#ifndef RY_VARY_H
#define RY_VARY_H

#define RY_VARY_MAX_VALUES 4096

typedef struct ry_vary {
    char *key;
    char **values;
    int n, cap;
} ry_vary;

/* Adds one item: a range's values, or the item itself. -1 with *why set
 * (a static string) on a bad range, too many values, or a control
 * character (a line break, a tab) in the item. */
int ry_vary_add(ry_vary *v, const char *item, const char **why);

/* "KEY=ITEM,ITEM,..." into v (key and values copied). -1 with *why set;
 * v is then empty. */
int ry_vary_parse(const char *arg, ry_vary *v, const char **why);

/* The index of the first value given twice (the earliest second
 * occurrence), or -1: sorted, not compared pairwise, so 4,096 values cost
 * a few thousand comparisons, not eight million. */
int ry_vary_dup(const ry_vary *v);

void ry_vary_free(ry_vary *v);

#endif
