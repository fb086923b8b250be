// Loads libpq at run time so that the ootd binary does not link it: a linked libpq (and its
// dependency tree: OpenSSL, Kerberos, LDAP) costs every start of the program, although only the
// `remote` and `team` commands talk to a server. The few types and entry points used are
// declared in pq_abi.h, so building ootd needs no libpq headers either.

#include "clibpqshim.h"
#include "pq_abi.h"
#include "dynamic_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct {
  ootd_PQconnectdbParams_fn connectdb_params;
  ootd_PQstatus_fn status;
  ootd_PQerrorMessage_fn error_message;
  ootd_PQfinish_fn finish;
  ootd_PQpass_fn pass;
  ootd_PQtransactionStatus_fn transaction_status;
  ootd_PQsetNoticeProcessor_fn set_notice_processor;
  ootd_PQexec_fn exec;
  ootd_PQexecParams_fn exec_params;
  ootd_PQresultStatus_fn result_status;
  ootd_PQresultErrorMessage_fn result_error_message;
  ootd_PQresultErrorField_fn result_error_field;
  ootd_PQntuples_fn ntuples;
  ootd_PQnfields_fn nfields;
  ootd_PQfname_fn fname;
  ootd_PQgetvalue_fn getvalue;
  ootd_PQgetisnull_fn getisnull;
  ootd_PQclear_fn clear;
  ootd_PQconninfoParse_fn conninfo_parse;
  ootd_PQconninfoFree_fn conninfo_free;
  ootd_PQfreemem_fn freemem;
  ootd_PQsslInUse_fn ssl_in_use;
  ootd_PQhost_fn host;
  // Optional: NULL with a libpq older than 14.
  ootd_PQenterPipelineMode_fn enter_pipeline;
  ootd_PQexitPipelineMode_fn exit_pipeline;
  ootd_PQpipelineSync_fn pipeline_sync;
  ootd_PQsendQueryParams_fn send_query_params;
  ootd_PQgetResult_fn get_result;
} pq;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int load_ok = 0;

#define symbol ootd_dl_symbol

#define LOAD(field, type, name) \
  pq.field = (type)symbol(handle, library, name, message, sizeof message)

int ootd_pq_load(const char *library, char *error, size_t error_size) {
  if (ootd_dl_begin_load(&load_lock, &load_ok)) return 1;
  char message[400] = "";
  if (library == NULL) library = "libpq.so.5";
  const char *opened = NULL;
  void *handle =
      ootd_dl_open(&library, 1, &opened, " (install Debian's libpq5)", message, sizeof message);
  if (handle != NULL) {
    LOAD(connectdb_params, ootd_PQconnectdbParams_fn, "PQconnectdbParams");
    LOAD(status, ootd_PQstatus_fn, "PQstatus");
    LOAD(error_message, ootd_PQerrorMessage_fn, "PQerrorMessage");
    LOAD(finish, ootd_PQfinish_fn, "PQfinish");
    LOAD(pass, ootd_PQpass_fn, "PQpass");
    LOAD(transaction_status, ootd_PQtransactionStatus_fn, "PQtransactionStatus");
    LOAD(set_notice_processor, ootd_PQsetNoticeProcessor_fn, "PQsetNoticeProcessor");
    LOAD(exec, ootd_PQexec_fn, "PQexec");
    LOAD(exec_params, ootd_PQexecParams_fn, "PQexecParams");
    LOAD(result_status, ootd_PQresultStatus_fn, "PQresultStatus");
    LOAD(result_error_message, ootd_PQresultErrorMessage_fn, "PQresultErrorMessage");
    LOAD(result_error_field, ootd_PQresultErrorField_fn, "PQresultErrorField");
    LOAD(ntuples, ootd_PQntuples_fn, "PQntuples");
    LOAD(nfields, ootd_PQnfields_fn, "PQnfields");
    LOAD(fname, ootd_PQfname_fn, "PQfname");
    LOAD(getvalue, ootd_PQgetvalue_fn, "PQgetvalue");
    LOAD(getisnull, ootd_PQgetisnull_fn, "PQgetisnull");
    LOAD(clear, ootd_PQclear_fn, "PQclear");
    LOAD(conninfo_parse, ootd_PQconninfoParse_fn, "PQconninfoParse");
    LOAD(conninfo_free, ootd_PQconninfoFree_fn, "PQconninfoFree");
    LOAD(freemem, ootd_PQfreemem_fn, "PQfreemem");
    LOAD(ssl_in_use, ootd_PQsslInUse_fn, "PQsslInUse");
    LOAD(host, ootd_PQhost_fn, "PQhost");
    // Pipeline mode is optional (libpq 14, 2021): an older libpq runs statements one at a time.
    if (message[0] == '\0') {
      pq.enter_pipeline = (ootd_PQenterPipelineMode_fn)dlsym(handle, "PQenterPipelineMode");
      pq.exit_pipeline = (ootd_PQexitPipelineMode_fn)dlsym(handle, "PQexitPipelineMode");
      pq.pipeline_sync = (ootd_PQpipelineSync_fn)dlsym(handle, "PQpipelineSync");
      pq.send_query_params = (ootd_PQsendQueryParams_fn)dlsym(handle, "PQsendQueryParams");
      pq.get_result = (ootd_PQgetResult_fn)dlsym(handle, "PQgetResult");
    }
  }
  return ootd_dl_end_load(handle, message, &load_ok, &load_lock, error, error_size);
}

int ootd_pq_is_loaded(void) {
  pthread_mutex_lock(&load_lock);
  int loaded = load_ok;
  pthread_mutex_unlock(&load_lock);
  return loaded;
}

static void discard_notice(void *arg, const char *message) {
  (void)arg;
  (void)message;
}

void *ootd_pq_connect(const char *const *keywords, const char *const *values, char *error,
                      size_t error_size) {
  if (!ootd_pq_load(NULL, error, error_size)) return NULL;
  ootd_PGconn *conn = pq.connectdb_params(keywords, values, 1);
  if (conn == NULL) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  if (pq.status(conn) != OOTD_CONNECTION_OK) {
    const char *message = pq.error_message(conn);
    snprintf(error, error_size, "%s", message ? message : "connection failed");
    pq.finish(conn);
    return NULL;
  }
  pq.set_notice_processor(conn, discard_notice, NULL);
  return conn;
}

void ootd_pq_finish(void *conn) {
  if (conn != NULL && load_ok) pq.finish(conn);
}

const char *ootd_pq_error_message(void *conn) { return pq.error_message(conn); }
int ootd_pq_status(void *conn) { return pq.status(conn); }
int ootd_pq_transaction_status(void *conn) { return pq.transaction_status(conn); }
const char *ootd_pq_password(void *conn) { return pq.pass(conn); }
int ootd_pq_ssl_in_use(void *conn) { return pq.ssl_in_use(conn); }

const char *ootd_pq_host(void *conn) {
  const char *host = pq.host(conn);
  return host ? host : "";
}

void *ootd_pq_exec(void *conn, const char *sql, int count, const char *const *values) {
  if (count == 0 && values == NULL) return pq.exec(conn, sql);
  return pq.exec_params(conn, sql, count, NULL, values, NULL, NULL, 0);
}

int ootd_pq_has_pipeline(void) {
  return pq.enter_pipeline != NULL && pq.exit_pipeline != NULL && pq.pipeline_sync != NULL &&
         pq.send_query_params != NULL && pq.get_result != NULL;
}

int ootd_pq_enter_pipeline(void *conn) {
  return ootd_pq_has_pipeline() ? pq.enter_pipeline(conn) : 0;
}

int ootd_pq_exit_pipeline(void *conn) {
  return ootd_pq_has_pipeline() ? pq.exit_pipeline(conn) : 0;
}

int ootd_pq_pipeline_sync(void *conn) {
  return ootd_pq_has_pipeline() ? pq.pipeline_sync(conn) : 0;
}

int ootd_pq_send(void *conn, const char *sql, int count, const char *const *values) {
  if (!ootd_pq_has_pipeline()) return 0;
  return pq.send_query_params(conn, sql, count, NULL, values, NULL, NULL, 0);
}

void *ootd_pq_get_result(void *conn) {
  return ootd_pq_has_pipeline() ? pq.get_result(conn) : NULL;
}

int ootd_pq_result_status(void *result) { return pq.result_status(result); }
const char *ootd_pq_result_error(void *result) { return pq.result_error_message(result); }

const char *ootd_pq_result_sqlstate(void *result) {
  const char *state = pq.result_error_field(result, 'C');  // PG_DIAG_SQLSTATE
  return state ? state : "";
}

int ootd_pq_ntuples(void *result) { return pq.ntuples(result); }
int ootd_pq_nfields(void *result) { return pq.nfields(result); }
const char *ootd_pq_fname(void *result, int field) { return pq.fname(result, field); }

const char *ootd_pq_value(void *result, int row, int field) {
  if (pq.getisnull(result, row, field)) return NULL;
  return pq.getvalue(result, row, field);
}

void ootd_pq_clear(void *result) {
  if (result != NULL) pq.clear(result);
}

void *ootd_pq_conninfo_parse(const char *conninfo, char *error, size_t error_size) {
  if (!ootd_pq_load(NULL, error, error_size)) return NULL;
  char *message = NULL;
  ootd_PQconninfoOption *options = pq.conninfo_parse(conninfo, &message);
  if (options == NULL) {
    snprintf(error, error_size, "%s", message ? message : "out of memory");
    if (message != NULL) pq.freemem(message);
  }
  return options;
}

const char *ootd_pq_option_keyword(void *options, int index) {
  return ((ootd_PQconninfoOption *)options)[index].keyword;
}

const char *ootd_pq_option_value(void *options, int index) {
  return ((ootd_PQconninfoOption *)options)[index].val;
}

void ootd_pq_options_free(void *options) {
  if (options != NULL) pq.conninfo_free(options);
}
