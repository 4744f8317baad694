/* switcher/include/bls/tunable.h -- the format of the tunable tables (bls/governor.h,
 * bls/sched.h) and what the C side derives from a row.
 *
 * A numeric or boolean tunable is declared once, as a row of its subsystem's table, and
 * everything else is derived from that row: the C struct's field and Linux's default (here),
 * and on the simulator's side the scenario key, its range, unit and description, the
 * configuration reference's row, and the copy into the kernel's struct
 * (soc/config/src/schema_kernel.cpp, soc/platform/src/kernel_config.cpp; docs/config.md).
 * A row is
 *
 *   X(kind, field, c_type, default, key, min, max, unit, scale, since, doc)
 *
 * kind     INT (a number) or BOOL (0/1 here, a YAML boolean in a scenario)
 * field    the C struct's field, named as the sysfs file (with the kernel's unit)
 * default  Linux's, in the field's unit (the interactive governor's: its 2013 generation's)
 * key      the scenario key, which carries its unit
 * min, max the range the scenario accepts, in the key's unit (INT only)
 * scale    field = key x scale (1000 for a key in us and a field in ns); the key's default is
 *          default / scale, rounded down (HMP's 4096 << 10 ns is 4194 us)
 * since    ALL, or G2013: only the 2013 generation of interactive has it (not written for
 *          2012; refused there)
 */
#ifndef BLS_TUNABLE_H
#define BLS_TUNABLE_H

/* A struct's field from a row. */
#define BLS_TUNABLE_FIELD(kind, field, c_type, ...) c_type field;

/* A row's default, assigned to @t->field. */
#define BLS_TUNABLE_SET_DEFAULT(kind, field, c_type, def, ...) t->field = (c_type)(def);

#endif /* BLS_TUNABLE_H */
