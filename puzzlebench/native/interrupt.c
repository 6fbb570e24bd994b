/* Ctrl-C inside a search that runs with the GIL released (pb_common.h: pb_sigints).
 *
 * Python's own SIGINT handler only marks the signal; the Python-level handler (the
 * KeyboardInterrupt) runs when the main thread next executes bytecode, which it does not do
 * while it is inside a search.  Neither a Python-level handler calling into C nor
 * PyOS_InterruptOccurred (it needs the GIL) can reach a running search, so a C handler is put
 * in front of Python's: it counts the signal in pb_sigints, which the search reads where it
 * reads the clock, and then calls the handler it replaced, so that Python sees the Ctrl-C as
 * it always does once the search has returned.  Nothing is installed where SIGINT is ignored
 * or left to its default (the harness's workers and children: their parent decides). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <signal.h>

#include "engines.h"
#include "pb_common.h"

volatile sig_atomic_t pb_sigints = 0;

#ifndef _WIN32
static struct sigaction replaced;   /* the handler ours calls on: Python's (written with the GIL) */

static void on_sigint(int sig, siginfo_t *info, void *context) {
    pb_sigints = (pb_sigints + 1) & 0x3fffffff;   /* only this handler writes it: no overflow */
    if (replaced.sa_flags & SA_SIGINFO) replaced.sa_sigaction(sig, info, context);
    else if (replaced.sa_handler != SIG_DFL && replaced.sa_handler != SIG_IGN) replaced.sa_handler(sig);
}

/* Our handler in front of whatever handles SIGINT now, unless it is ours already or SIGINT is
 * ignored or left to its default.  A later signal.signal() puts Python's back; the next search
 * puts ours in front of it again.  With the GIL held, so never two at once. */
static void install(void) {
    struct sigaction now, ours;
    if (sigaction(SIGINT, NULL, &now) != 0) return;
    /* ours whatever the flags: PySAT's solve puts back the handler it found through
     * PyOS_setsig, without SA_SIGINFO; taken for another's, ours would call itself forever */
    if (now.sa_sigaction == on_sigint) return;
    if (!(now.sa_flags & SA_SIGINFO) && (now.sa_handler == SIG_DFL || now.sa_handler == SIG_IGN))
        return;
    replaced = now;
    ours = now;
    ours.sa_sigaction = on_sigint;
    ours.sa_flags = (now.sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
    sigaction(SIGINT, &ours, NULL);
}
#else
static void install(void) {}
#endif

int pb_interrupt_arm(sig_atomic_t *seen) {
    install();
    *seen = pb_sigints;
    /* a Ctrl-C that came before ours was in place is Python's alone: its handler runs now
     * (the KeyboardInterrupt raised here, not after a search that would not have seen it) */
    if (PyErr_CheckSignals() < 0) return -1;
    return 0;
}

int pb_interrupted(int stopped, sig_atomic_t seen) {
    if (!stopped || pb_sigints == seen) return 0;
    if (PyErr_CheckSignals() == 0 && !PyErr_Occurred())
        PyErr_SetNone(PyExc_KeyboardInterrupt);   /* a handler that raised nothing: still no answer */
    return 1;
}

/* For a library's search that has its own stop call (CP-SAT's StopSearch): a thread of the
 * caller's compares sigints() with the count watch_sigints() gave before the search. */
static PyObject *watch_sigints(PyObject *self, PyObject *noargs) {
    install();
    return PyLong_FromLong((long)pb_sigints);
}

static PyObject *sigints(PyObject *self, PyObject *noargs) {
    return PyLong_FromLong((long)pb_sigints);
}

static PyMethodDef interrupt_methods[] = {
    {"watch_sigints", watch_sigints, METH_NOARGS,
     "watch_sigints() -> the count of SIGINTs so far, the handler that counts them put in front of "
     "Python's (where Python's handles SIGINT: not where it is ignored)"},
    {"sigints", sigints, METH_NOARGS, "sigints() -> the count of SIGINTs so far (see watch_sigints)"},
    {NULL, NULL, 0, NULL},
};

int pb_register_interrupt(PyObject *module) {
    return PyModule_AddFunctions(module, interrupt_methods);
}
