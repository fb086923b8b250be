// The part of libpq's stable ABI (libpq.so.5) that shim.c uses, declared here so that ootd
// builds without libpq's development headers: the library is loaded with dlopen at run time and
// no libpq symbol is linked. Written from libpq's documented ABI (libpq-fe.h, postgres_ext.h),
// unchanged for these names since PostgreSQL 10; the numbers are checked against <libpq-fe.h>
// (and the layout of PQconninfoOption) by Tests/RemoteTests/ABITests.swift when it is installed.
//
// Private to CLibPQShim (it is not under include/, so Swift never sees it).

#ifndef OOTD_PQ_ABI_H
#define OOTD_PQ_ABI_H

#include <stddef.h>

// Connections and results are opaque.
typedef void ootd_PGconn;
typedef void ootd_PGresult;
typedef unsigned int ootd_Oid;

// ConnStatusType: CONNECTION_OK.
#define OOTD_CONNECTION_OK 0

// PQconninfoOption, as libpq-fe.h lays it out.
typedef struct ootd_PQconninfoOption {
  char *keyword;
  char *envvar;
  char *compiled;
  char *val;
  char *label;
  char *dispchar;
  int dispsize;
} ootd_PQconninfoOption;

typedef void (*ootd_PQnoticeProcessor)(void *arg, const char *message);

typedef ootd_PGconn *(*ootd_PQconnectdbParams_fn)(const char *const *keywords,
                                                  const char *const *values, int expand_dbname);
typedef int (*ootd_PQstatus_fn)(const ootd_PGconn *conn);
typedef char *(*ootd_PQerrorMessage_fn)(const ootd_PGconn *conn);
typedef void (*ootd_PQfinish_fn)(ootd_PGconn *conn);
typedef char *(*ootd_PQpass_fn)(const ootd_PGconn *conn);
typedef int (*ootd_PQtransactionStatus_fn)(const ootd_PGconn *conn);
typedef ootd_PQnoticeProcessor (*ootd_PQsetNoticeProcessor_fn)(ootd_PGconn *conn,
                                                               ootd_PQnoticeProcessor proc,
                                                               void *arg);
typedef ootd_PGresult *(*ootd_PQexec_fn)(ootd_PGconn *conn, const char *query);
typedef ootd_PGresult *(*ootd_PQexecParams_fn)(ootd_PGconn *conn, const char *command,
                                               int nParams, const ootd_Oid *paramTypes,
                                               const char *const *paramValues,
                                               const int *paramLengths, const int *paramFormats,
                                               int resultFormat);
typedef int (*ootd_PQresultStatus_fn)(const ootd_PGresult *res);
typedef char *(*ootd_PQresultErrorMessage_fn)(const ootd_PGresult *res);
typedef char *(*ootd_PQresultErrorField_fn)(const ootd_PGresult *res, int fieldcode);
typedef int (*ootd_PQntuples_fn)(const ootd_PGresult *res);
typedef int (*ootd_PQnfields_fn)(const ootd_PGresult *res);
typedef char *(*ootd_PQfname_fn)(const ootd_PGresult *res, int field_num);
typedef char *(*ootd_PQgetvalue_fn)(const ootd_PGresult *res, int tup_num, int field_num);
typedef int (*ootd_PQgetisnull_fn)(const ootd_PGresult *res, int tup_num, int field_num);
typedef void (*ootd_PQclear_fn)(ootd_PGresult *res);
typedef ootd_PQconninfoOption *(*ootd_PQconninfoParse_fn)(const char *conninfo, char **errmsg);
typedef void (*ootd_PQconninfoFree_fn)(ootd_PQconninfoOption *options);
typedef void (*ootd_PQfreemem_fn)(void *ptr);
typedef int (*ootd_PQsslInUse_fn)(const ootd_PGconn *conn);
typedef char *(*ootd_PQhost_fn)(const ootd_PGconn *conn);
// Pipeline mode (libpq 14 and later; looked up optionally, see shim.c).
typedef int (*ootd_PQenterPipelineMode_fn)(ootd_PGconn *conn);
typedef int (*ootd_PQexitPipelineMode_fn)(ootd_PGconn *conn);
typedef int (*ootd_PQpipelineSync_fn)(ootd_PGconn *conn);
typedef int (*ootd_PQsendQueryParams_fn)(ootd_PGconn *conn, const char *command, int nParams,
                                         const ootd_Oid *paramTypes,
                                         const char *const *paramValues, const int *paramLengths,
                                         const int *paramFormats, int resultFormat);
typedef ootd_PGresult *(*ootd_PQgetResult_fn)(ootd_PGconn *conn);

#endif
