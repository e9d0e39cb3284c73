/* The spec's JSON Schema (see emit_schema.h). A spec's keys are the rows
 * of ry_spec_keys: "a.b" lies in section "a"; a list's entries are the rows
 * under "a.list[]". Values are typed as YAML loads them: "400G" a string,
 * 400 a number, yes/no a boolean. */
#include "emit/report/emit_schema.h"

#include <jansson.h>
#include "emit/json_out.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "spec/schema.h"

/* Row k lies directly under prefix ("" for the top level). */
static int directly_under(const ry_key *k, const char *prefix)
{
    size_t n = strlen(prefix);
    if (n == 0)
        return strchr(k->key, '.') == NULL;
    return strncmp(k->key, prefix, n) == 0 && k->key[n] == '.' && !strchr(k->key + n + 1, '.');
}

static int has_rows_under(const char *prefix)
{
    for (size_t i = 0; i < ry_spec_nkeys; i++)
        if (directly_under(&ry_spec_keys[i], prefix))
            return 1;
    return 0;
}

/* A word in any case, as railyard reads it: "auto" gives "[aA][uU][tT][oO]". */
static void any_case(ry_buf *b, const char *w)
{
    for (; *w; w++) {
        if (isalpha((unsigned char)*w))
            ry_buf_printf(b, "[%c%c]", tolower((unsigned char)*w), toupper((unsigned char)*w));
        else if (strchr(".^$*+?()[]{}|\\/-", *w))
            ry_buf_printf(b, "\\%c", *w);
        else
            ry_buf_putc(b, *w);
    }
}

static json_t *words_pattern(const char *const *words)
{
    ry_buf b;
    ry_buf_init(&b);
    ry_buf_puts(&b, "^(");
    for (int i = 0; words[i]; i++) {
        if (i)
            ry_buf_putc(&b, '|');
        any_case(&b, words[i]);
    }
    ry_buf_puts(&b, ")$");
    json_t *j = json_pack("{s:s, s:s}", "type", "string", "pattern", b.data);
    ry_buf_free(&b);
    return j;
}

static json_t *types(const char *a, const char *b)
{
    return b ? json_pack("[s, s]", a, b) : json_string(a);
}

static json_t *object_of(const char *prefix);

/* A number written with its unit or a multiplier ("50cm", "4Ki", "1.5 kW"),
 * as the spec reader takes it (railyard-spec(5), UNITS): a string the
 * schema lets through; its range is railyard's to check. */
static json_t *with_unit(json_t *plain)
{
    return json_pack("{s:[o, {s:s, s:s}]}", "anyOf", plain, "type", "string", "pattern",
                     "^ *[-+]?[0-9]*[.]?[0-9]+([eE][-+]?[0-9]+)? *[A-Za-z%/ ]*$");
}

static json_t *int_schema(const ry_key *k)
{
    json_t *j = json_pack("{s:s, s:I, s:I}", "type", "integer", "minimum", (json_int_t)k->min,
                          "maximum", (json_int_t)k->max);
    if (k->flags & RY_KEY_EVEN)
        json_object_set_new(j, "multipleOf", json_integer(2));
    return j;
}

/* The value's schema of row k (without its description). */
static json_t *value_schema(const ry_key *k)
{
    json_t *j;
    ry_buf sub;
    ry_buf_init(&sub);
    switch (k->type) {
    case RY_KEY_SECTION:
        j = object_of(k->key);
        break;
    case RY_KEY_INT:
        j = k->flags & RY_KEY_EVEN ? int_schema(k) : with_unit(int_schema(k));
        break;
    case RY_KEY_AUTO_INT: {
        static const char *const autow[] = { "auto", NULL };
        j = json_pack("{s:[o, o]}", "anyOf", words_pattern(autow), with_unit(int_schema(k)));
        /* a row that may also be a list of maps (fabric.tiers) */
        ry_buf_printf(&sub, "%s[]", k->key);
        if (has_rows_under(sub.data))
            json_array_append_new(json_object_get(j, "anyOf"),
                                  json_pack("{s:s, s:o}", "type", "array", "items",
                                            object_of(sub.data)));
        break;
    }
    case RY_KEY_NUMBER:
        j = json_pack("{s:s, s:f}", "type", "number", "minimum", k->dmin);
        if (k->dmax < 1e300)
            json_object_set_new(j, "maximum", json_real(k->dmax));
        j = with_unit(j);
        break;
    case RY_KEY_BOOL:
        j = json_pack("{s:s}", "type", "boolean");
        break;
    case RY_KEY_STRING:
        j = json_pack("{s:s}", "type", "string");
        if (k->max > 0)
            json_object_set_new(j, "maxLength", json_integer(k->max));
        break;
    case RY_KEY_NAME:
        j = json_pack("{s:s, s:s, s:i}", "type", "string", "pattern", "^[a-z0-9._-]+$",
                      "maxLength", RY_NAME_MAX - 1);
        break;
    case RY_KEY_ENUM:
        j = words_pattern(k->words);
        break;
    case RY_KEY_SPEED:
        j = json_pack("{s:o}", "type", types("string", "number"));
        break;
    case RY_KEY_GUID:
        j = json_pack("{s:o}", "type", types("string", "integer"));
        break;
    default:    /* CUSTOM and ANY: read by their own readers */
        ry_buf_printf(&sub, "%s[]", k->key);
        if (has_rows_under(sub.data)) {
            j = json_pack("{s:s, s:o}", "type", "array", "items", object_of(sub.data));
        } else if (has_rows_under(k->key)) {
            j = object_of(k->key);
            if (k->type_doc && strncmp(k->type_doc, "catalog name", 12) == 0)
                j = json_pack("{s:[{s:s}, o]}", "anyOf", "type", "string", j);
        } else {
            j = json_object();  /* railyard checks it */
        }
        break;
    }
    ry_buf_free(&sub);
    /* Rows with a reader of their own take what it takes (times with units,
     * hex numbers): the type is left to railyard. */
    if (k->read && k->type_doc && k->type != RY_KEY_CUSTOM) {
        json_decref(j);
        j = json_object();
    }
    return j;
}

/* The map of the rows directly under prefix. */
static json_t *object_of(const char *prefix)
{
    json_t *props = json_object(), *required = json_array(), *patterns = NULL;
    for (size_t i = 0; i < ry_spec_nkeys; i++) {
        const ry_key *k = &ry_spec_keys[i];
        if (!directly_under(k, prefix))
            continue;
        const char *name = *prefix ? k->key + strlen(prefix) + 1 : k->key;
        if (k->type == RY_KEY_ANY) {
            /* "x-*": any key of that prefix */
            ry_buf p;
            ry_buf_init(&p);
            ry_buf_printf(&p, "^%.*s", (int)strcspn(name, "*"), name);
            if (!patterns)
                patterns = json_object();
            json_object_set_new(patterns, p.data, json_pack("{s:s}", "description", k->doc));
            ry_buf_free(&p);
            continue;
        }
        json_t *v = value_schema(k);
        char summary[256];
        ry_key_summary(k, summary, sizeof summary);
        ry_buf d;
        ry_buf_init(&d);
        ry_buf_printf(&d, "%s (%s)", k->doc ? k->doc : "", summary);
        json_object_set_new(v, "description", json_string(d.data));
        ry_buf_free(&d);
        json_object_set_new(props, name, v);
        if (k->flags & RY_KEY_REQUIRED)
            json_array_append_new(required, json_string(name));
    }
    json_t *o = json_pack("{s:s, s:o, s:b}", "type", "object", "properties", props,
                          "additionalProperties", 0);
    if (patterns)
        json_object_set_new(o, "patternProperties", patterns);
    if (json_array_size(required))
        json_object_set_new(o, "required", required);
    else
        json_decref(required);
    return o;
}

void ry_emit_spec_schema(ry_buf *out)
{
    json_t *top = object_of("");
    json_t *j = json_pack("{s:s, s:s, s:s}", "$schema", "http://json-schema.org/draft-07/schema#",
                          "title", "railyard cluster spec (railyard-spec(5))", "description",
                          "A railyard cluster spec, version 1. Made by `railyard catalog schema` "
                          "from the schema table; railyard validate checks further rules.");
    json_object_update(j, top);
    json_decref(top);
    ry_json_out(out, j, 0);
}
