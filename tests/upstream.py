#!/usr/bin/python3
# upstream.py DIR DEVICE PORT GID_INDEX
#
# Runs rdma-core's own test suite (DIR: its tests/ directory, the
# package that run_tests.py loads) against DEVICE, with whatever pyverbs
# python3 imports, and prints one line per test case as it ends:
#
#     upstream: RESULT test_FILE.py::test_NAME ?WHY?
#
# RESULT is passed, failed, error, skipped, xfail or xpass; WHY is the
# skip's reason or the last line of a failure's message.  A class or
# module whose setup fails is reported as one "error" line named
# test_FILE.py::setUpClass (or setUpModule).  The last line is
#
#     upstream: done RAN
#
# tests/upstream.sh runs this in the Soft-RoCE VM (make test-upstream);
# tests/upstream.tcl reads its lines.

import os
import sys
import unittest
from importlib.machinery import SourceFileLoader


def case_name(test):
    """test_FILE.py::test_NAME of a test case, as tests/upstream.map has it."""
    ident = test.id()
    # Errors of a class or module setup come as "setUpClass (tests.x.C)".
    if ' (' in ident and ident.endswith(')'):
        what, where = ident[:-1].split(' (', 1)
        parts = where.split('.')
        module = parts[1] if len(parts) > 1 else parts[0]
        return '%s.py::%s' % (module, what)
    parts = ident.split('.')
    return '%s.py::%s' % (parts[1], parts[-1])


def last_line(err):
    """The last non-empty line of an exception's text, on one line."""
    text = str(err[1]) if err[1] is not None else ''
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    if not lines:
        return err[0].__name__
    return ('%s: %s' % (err[0].__name__, lines[-1]))[:300]


class LineResult(unittest.TestResult):
    """A result that prints a line per case instead of keeping it."""

    def report(self, test, result, why=''):
        sys.stdout.write('upstream: %s %s%s\n' % (
            result, case_name(test), ' ' + why if why else ''))
        sys.stdout.flush()

    def addSuccess(self, test):
        super().addSuccess(test)
        self.report(test, 'passed')

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.report(test, 'failed', last_line(err))

    def addError(self, test, err):
        super().addError(test, err)
        self.report(test, 'error', last_line(err))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.report(test, 'skipped', ' '.join(str(reason).split()))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.report(test, 'xfail')

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.report(test, 'xpass')


def main():
    if len(sys.argv) != 5:
        sys.stderr.write('usage: upstream.py DIR DEVICE PORT GID_INDEX\n')
        return 2
    top, dev, port, gid = sys.argv[1:]
    top = os.path.abspath(top)
    # The suite imports its helpers (args_parser) as top-level modules.
    sys.path.insert(0, top)
    sys.argv[1:] = ['--dev', dev, '--port', port, '--gid', gid]
    from args_parser import parser
    parser.parse_args()
    tests = SourceFileLoader(
        'tests', os.path.join(top, '__init__.py')).load_module()
    suite = unittest.defaultTestLoader.loadTestsFromModule(tests)
    result = LineResult()
    suite.run(result)
    sys.stdout.write('upstream: done %d\n' % result.testsRun)
    return 0


if __name__ == '__main__':
    sys.exit(main())
