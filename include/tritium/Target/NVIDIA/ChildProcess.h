//===- ChildProcess.h - child processes without shells or signals -*- C++ -*-===//
//
// Starting the programs the back end runs (ptxas) and waiting for them, safe
// from several compiling threads at once and across fork (ChildProcess.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_CHILDPROCESS_H
#define TRITIUM_TARGET_NVIDIA_CHILDPROCESS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

#include <sys/types.h>

#include <atomic>

namespace tritium::nvidia {

/// Starts `args` (args[0] the program's path; no shell), its standard input
/// the read end `input` of a pipe (or /dev/null when negative), stdout and
/// stderr into the file `logPath`.  Returns its pid.
llvm::Expected<pid_t> spawnProcess(const std::vector<std::string> &args,
                                   int input, const std::string &logPath);

/// Waits for the process `pid` to end and returns its exit status; after
/// `seconds` (0: no limit) it is killed and the wait is an error naming
/// `program`, as is its death by a signal.  Where `stop` is given, the
/// process is also killed (by this wait, which owns it) within a few
/// milliseconds of `*stop` becoming true, and the wait is an error.
llvm::Expected<int> waitForExit(pid_t pid, unsigned seconds,
                                llvm::StringRef program,
                                const std::atomic<bool> *stop = nullptr);

/// Kills the process `pid` and waits for it to end.
void killProcess(pid_t pid);

/// spawnProcess with stdin /dev/null, then waitForExit.
llvm::Expected<int> runProcess(const std::vector<std::string> &args,
                               const std::string &logPath, unsigned timeout,
                               const std::atomic<bool> *stop = nullptr);

/// A pipe for a child's standard input, both ends close-on-exec; its write
/// end is closed in any child this process forks until
/// forgetChildInputPipe(fds[1]).  False when none can be made.
bool makeChildInputPipe(int fds[2]);

/// Forgets the write end `fd` of a makeChildInputPipe pipe (before it is
/// closed).
void forgetChildInputPipe(int fd);

/// Writes all of `data` to the pipe `fd` (non-blocking or not) until its
/// reader goes: every byte written, true; the reader gone or `seconds`
/// passed (0: no limit), false.  SIGPIPE never ends the process.
bool writeToPipe(int fd, llvm::StringRef data, unsigned seconds);

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_CHILDPROCESS_H
