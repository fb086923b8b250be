#ifndef OOTD_CLIBPQSHIM_H
#define OOTD_CLIBPQSHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// ExecStatusType values the Swift side distinguishes (libpq-fe.h).
#define OOTD_PGRES_EMPTY_QUERY 0
#define OOTD_PGRES_COMMAND_OK 1
#define OOTD_PGRES_TUPLES_OK 2
#define OOTD_PGRES_FATAL_ERROR 7
#define OOTD_PGRES_PIPELINE_SYNC 10
#define OOTD_PGRES_PIPELINE_ABORTED 11

// PGTransactionStatusType values.
#define OOTD_PQTRANS_IDLE 0
#define OOTD_PQTRANS_INTRANS 2
#define OOTD_PQTRANS_INERROR 3
#define OOTD_PQTRANS_UNKNOWN 4

/// Loads libpq with dlopen unless it is loaded already: `library` (a file name or path), or
/// "libpq.so.5" when NULL. Once loaded it serves the whole process; a failed load is retried on
/// the next call. Returns 1 when usable, else 0 with a one-line reason in `error`.
int ootd_pq_load(const char *library, char *error, size_t error_size);

/// Whether libpq is loaded in this process (tests check that commands without a server never
/// load it).
int ootd_pq_is_loaded(void);

/// PQconnectdbParams with expand_dbname = 1 (a `dbname` value may be a URI or a conninfo
/// string). Notices (e.g. "relation already exists, skipping") are discarded instead of going to
/// standard error. Returns the connection, or NULL with libpq's message in `error`.
void *ootd_pq_connect(const char *const *keywords, const char *const *values, char *error,
                      size_t error_size);
void ootd_pq_finish(void *conn);
const char *ootd_pq_error_message(void *conn);
int ootd_pq_status(void *conn);
int ootd_pq_transaction_status(void *conn);
/// The password the connection used (from the URI, PGPASSWORD or ~/.pgpass), or NULL: only so
/// that messages can be scrubbed of it.
const char *ootd_pq_password(void *conn);
/// PQsslInUse: 1 when the connection is encrypted with TLS.
int ootd_pq_ssl_in_use(void *conn);
/// PQhost: the host the connection reached (a name, an address, or a Unix socket directory
/// starting with '/'), "" when unknown.
const char *ootd_pq_host(void *conn);

/// PQexecParams in text format (`values[i]` NULL is SQL NULL); `count` 0 with `values` NULL
/// runs `sql` through PQexec instead, which accepts several statements.
void *ootd_pq_exec(void *conn, const char *sql, int count, const char *const *values);

/// Whether the loaded libpq has pipeline mode (libpq 14 and later): without it, the functions
/// below fail (return 0 or NULL) and callers run their statements one at a time.
int ootd_pq_has_pipeline(void);
/// PQenterPipelineMode, PQexitPipelineMode and PQpipelineSync (1 on success, else 0).
int ootd_pq_enter_pipeline(void *conn);
int ootd_pq_exit_pipeline(void *conn);
int ootd_pq_pipeline_sync(void *conn);
/// PQsendQueryParams in text format (queued in pipeline mode; 1 on success, else 0).
int ootd_pq_send(void *conn, const char *sql, int count, const char *const *values);
/// PQgetResult: the next result, NULL at the end of a statement's results.
void *ootd_pq_get_result(void *conn);
int ootd_pq_result_status(void *result);
const char *ootd_pq_result_error(void *result);
/// The SQLSTATE of a failed result ("" when none).
const char *ootd_pq_result_sqlstate(void *result);
int ootd_pq_ntuples(void *result);
int ootd_pq_nfields(void *result);
const char *ootd_pq_fname(void *result, int field);
/// The value, or NULL for SQL NULL.
const char *ootd_pq_value(void *result, int row, int field);
void ootd_pq_clear(void *result);

/// PQconninfoParse: the options of a URI or conninfo string, or NULL with libpq's reason in
/// `error`. Read them with ootd_pq_option_keyword/value (a NULL keyword ends the list) and free
/// them with ootd_pq_options_free.
void *ootd_pq_conninfo_parse(const char *conninfo, char *error, size_t error_size);
const char *ootd_pq_option_keyword(void *options, int index);
const char *ootd_pq_option_value(void *options, int index);
void ootd_pq_options_free(void *options);

#ifdef __cplusplus
}
#endif

#endif
