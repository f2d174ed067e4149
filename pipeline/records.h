/* The records of one results folder, read and checked before anything is
 * believed or written: the one reader behind `report`, the table step,
 * `compare` and `fleet`, so they refuse the same bad input with the same
 * words (docs/reliability.md).
 *
 * Every *.json in the folder is read (regular files only: a FIFO, an
 * unreadable file, a dangling link or a link loop is an error naming it,
 * never a missing probe).  A JSON file without a "probe" member is not a
 * record and is skipped with a note, unless it is named for a probe
 * (lds.json), which must be that probe's record.  Each record must pass
 * gp_record_check_json, name a probe this build knows, be named
 * <probe>.json for it, and come from the same device (name, arch, PCI bus)
 * as the folder's other records.  Any failure is GP_ERR_USAGE (or
 * GP_ERR_IO), naming the file. */
#ifndef GP_RECORDS_H
#define GP_RECORDS_H

#include "gp_status.h"
#include "json_read.h"
#include "record.h"

typedef struct gp_rec_file {
    char file[256];         /* its name in the folder: <probe>.json */
    gp_json json;           /* as parsed: the report walks its "series" */
    gp_record rec;
    int dropped;            /* values and notes beyond the record's limits */
} gp_rec_file;

typedef struct gp_records {
    char dir[1024];
    gp_rec_file *files;     /* in file-name order */
    int n;
    char skipped[16][GP_STATUS_MSG_LEN]; /* JSON files that are not records, and why */
    int nskipped;
} gp_records;

/* Read and check every record of dir (see above).  No record at all is
 * GP_ERR_USAGE "no probe records (*.json) in 'DIR'", followed by `hint`
 * (may be NULL).  On failure nothing is left to free. */
gp_status gp_records_load(const char *dir, const char *hint, gp_records *out);
void gp_records_free(gp_records *r);
/* The record of `probe`, or NULL. */
const gp_rec_file *gp_records_find(const gp_records *r, const char *probe);

/* One parsed JSON file `name` (a name in a folder, not a path; `path` names
 * it in messages): 1 when it is a record that passes every check above but
 * the device one, 0 with *why when it is not a record (no "probe" member,
 * not named for a probe), GP_ERR_USAGE in *st when it is a bad one. */
int gp_records_check_one(const gp_json *j, const char *name, const char *path, gp_status *st, const char **why);

/* The two records' devices are the same GPU model at the same PCI bus. */
int gp_records_same_device(const gp_record *a, const gp_record *b);

#endif
