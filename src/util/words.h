/* A word's place in a NULL-terminated list of words: the lists of names a
 * key or an option takes (operations, algorithms, routings, policies). */
#ifndef RY_WORDS_H
#define RY_WORDS_H

/* The index of s in words, or -1 when s is NULL or not one of them. */
int ry_word_index(const char *const *words, const char *s);

#endif
