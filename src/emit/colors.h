/* Colours for rails, shared by the cabling plan and the diagrams so that a
 * rail's cables and its drawing carry the same colour. */
#ifndef RY_COLORS_H
#define RY_COLORS_H

/* Six lowercase hex digits, no '#' ("1f5fbf"): a fixed palette of twelve
 * colours cycling over the rails; grey for rail < 0 (a link or switch that
 * serves several rails). */
const char *ry_rail_color(int rail);

/* The colour's name in plain words ("blue", "grey"), for people matching a
 * cable to a printed sheet. */
const char *ry_rail_color_name(int rail);

#endif
