/*
 * Files a connection string names, through the driver manager: a Locator=
 * that is a FIFO or nested too deep fails SQLDriverConnect at once with
 * 08001 (a FIFO used to block it forever, 100 KB of '[' took minutes), and
 * a new LogFile is created readable by its owner only (it holds SQL text).
 */
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "conn_test.h"

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Connects with the fixture's DSN as a global connection whose only source
 * of members is the locator file at path; returns the SQLSTATE and the
 * first message, and how long SQLDriverConnect took. */
static SQLRETURN connect_with_locator(SQLHENV env, const char *path, char state[6],
                                      char *msg, size_t msg_size, double *took)
{
    char connstr[4096 + 256];
    snprintf(connstr, sizeof connstr, "DSN=%s;GlobalConnection=Yes;Servers=;Locator={%s}",
             ct_dsn(), path);
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    double start = seconds_now();
    SQLRETURN rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                                    SQL_DRIVER_NOPROMPT);
    *took = seconds_now() - start;
    SQLINTEGER native;
    SQLSMALLINT len;
    state[0] = msg[0] = '\0';
    SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 1, (SQLCHAR *)state, &native, (SQLCHAR *)msg,
                  (SQLSMALLINT)msg_size, &len);
    if (CT_OK(rc))
        SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    return rc;
}

static void test_fifo_and_deep_locators_fail_at_once(SQLHENV env, const char *dir)
{
    char path[4096], state[6], msg[1024];
    double took = 0;
    snprintf(path, sizeof path, "%s/fifo-locator.yaml", dir);
    unlink(path);
    CT_CHECK(mkfifo(path, 0600) == 0, "mkfifo %s: %s", path, strerror(errno));
    alarm(60);   /* a connect blocked on the FIFO ends the test as a failure */
    SQLRETURN rc = connect_with_locator(env, path, state, msg, sizeof msg, &took);
    alarm(0);
    unlink(path);
    CT_CHECK(rc == SQL_ERROR && strcmp(state, "08001") == 0, "FIFO: rc=%d state=%s %s", rc, state, msg);
    CT_CHECK(strstr(msg, "is not a regular file (a FIFO)") != NULL, "FIFO message: %s", msg);
    CT_CHECK(took < 5.0, "FIFO: the connect took %.3f s", took);

    snprintf(path, sizeof path, "%s/deep-locator.yaml", dir);
    FILE *f = fopen(path, "w");
    CT_CHECK(f != NULL, "cannot write %s", path);
    if (f == NULL)
        return;
    for (int i = 0; i < 100 * 1024; i++)
        fputc('[', f);
    fclose(f);
    rc = connect_with_locator(env, path, state, msg, sizeof msg, &took);
    unlink(path);
    CT_CHECK(rc == SQL_ERROR && strcmp(state, "08001") == 0, "deep: rc=%d state=%s %s", rc, state, msg);
    CT_CHECK(strstr(msg, ":1:33: nested deeper than 32 levels") != NULL, "deep message: %s", msg);
    CT_CHECK(took < 5.0, "100 KB of '[': the connect took %.3f s", took);
}

static void test_new_log_file_is_private(SQLHENV env, const char *dir)
{
    char path[4096], connstr[4096 + 256];
    snprintf(path, sizeof path, "%s/private-trace.log", dir);
    unlink(path);
    snprintf(connstr, sizeof connstr, "DSN=%s;LogLevel=3;LogFile={%s}", ct_dsn(), path);
    mode_t old_mask = umask(022);   /* the usual umask would let others read it */
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    SQLRETURN rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                                    SQL_DRIVER_NOPROMPT);
    umask(old_mask);
    CT_CHECK(CT_OK(rc), "connect with LogFile rc=%d", rc);
    if (CT_OK(rc))
        SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    struct stat st;
    CT_CHECK(stat(path, &st) == 0 && st.st_size > 0, "no trace written to %s", path);
    CT_CHECK((st.st_mode & 07777) == 0600, "trace file mode %o, expected 600", (unsigned)(st.st_mode & 07777));
    unlink(path);
}

int main(void)
{
    const char *dir = getenv("GC_TEST_STATE_DIR");
    if (dir == NULL) {
        fprintf(stderr, "GC_TEST_STATE_DIR is not set (run through ctest)\n");
        return 1;
    }
    SQLHENV env;
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    test_fifo_and_deep_locators_fail_at_once(env, dir);
    test_new_log_file_is_private(env, dir);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    return ct_finish("test_locator_and_trace_files");
}
