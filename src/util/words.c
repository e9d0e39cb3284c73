#include <string.h>

#include "util/words.h"

int ry_word_index(const char *const *words, const char *s)
{
    for (int i = 0; s && words[i]; i++)
        if (strcmp(s, words[i]) == 0)
            return i;
    return -1;
}
