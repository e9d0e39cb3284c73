#include "emit/colors.h"

/* Twelve hues far apart, neighbours alternating dark and light so rails
 * next to each other stay apart on paper and on screen. Not greys: grey
 * means "several rails". */
static const struct {
    const char *hex, *name;
} palette[12] = {
    { "d7301f", "red" },
    { "1f5fbf", "blue" },
    { "2e9e3e", "green" },
    { "f08c00", "orange" },
    { "7b3fb5", "purple" },
    { "00a3a3", "teal" },
    { "c2185b", "magenta" },
    { "8c6d1f", "ochre" },
    { "0b3d91", "navy" },
    { "9bbf1a", "lime" },
    { "e35fa8", "pink" },
    { "5a3a22", "brown" },
};

const char *ry_rail_color(int rail)
{
    if (rail < 0)
        return "9e9e9e";
    return palette[rail % 12].hex;
}

const char *ry_rail_color_name(int rail)
{
    if (rail < 0)
        return "grey";
    return palette[rail % 12].name;
}
