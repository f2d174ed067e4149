/* Helpers the kernels' rule functions (kernels/<k>/<k>_rule.c) share: read
 * one device fact from the table with the rule's name in every error, so a
 * rule that cannot run says which fact it lacks. */
#ifndef GP_KRULE_H
#define GP_KRULE_H

#include "gp_status.h"
#include "table.h"

/* *out = section.key, which must be present, not `none`, and within
 * [min, max]; else GP_ERR_USAGE "rule <rule>: fact section.key ...". */
gp_status gp_rule_fact(const gp_table *t, const char *rule, const char *section, const char *key, double min,
                       double max, double *out);

/* Smallest power of two >= v (1 for v <= 1), and the largest <= v. */
int gp_rule_ceil_pow2(double v);
int gp_rule_floor_pow2(double v);

#endif
