// Tests of how ptxas runs as a process (runPtxas, StartedPtxas), with shell
// scripts in its place: what the program is given as its input file, the
// time limit, and a started process that is never given its PTX.
#include "tritium/Target/NVIDIA/Ptxas.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tritium::nvidia;

namespace {
/// A directory of its own holding an executable script `ptxas` whose body
/// is `body` (sh; "$input" and "$output" are its input file and -o file).
struct FakePtxas {
  llvm::SmallString<128> dir;
  std::string path;

  explicit FakePtxas(const std::string &body) {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("fake-ptxas", dir));
    path = (dir + "/ptxas").str();
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    out << "#!/bin/sh\n"
           "while [ $# -gt 0 ]; do\n"
           "  case \"$1\" in\n"
           "    -o) output=\"$2\"; shift 2 ;;\n"
           "    -*) shift ;;\n"
           "    *) input=\"$1\"; shift ;;\n"
           "  esac\n"
           "done\n"
        << body << "\n";
    out.close();
    chmod(path.c_str(), 0755);
  }
  ~FakePtxas() { llvm::sys::fs::remove_directories(dir); }
};

CudaTarget hopper() {
  llvm::Expected<CudaTarget> target = makeCudaTarget(90, 0);
  EXPECT_TRUE(bool(target));
  return *target;
}

PtxasOptions outOfProcess(unsigned seconds = 60) {
  PtxasOptions options;
  options.inProcess = false;
  options.timeoutSeconds = seconds;
  return options;
}

const char *kReport = "echo \"ptxas info    : Compiling entry function 'k' for "
                      "'sm_90a'\"\n"
                      "echo \"ptxas info    : Function properties for k\"\n"
                      "echo \"ptxas info    : Used 12 registers\"\n";
} // namespace

TEST(PtxasProcess, StartedAndFileRunsReadTheSameInputTwice) {
  // The script reads its input twice, as ptxas does: both runs must give it
  // the whole PTX both times.
  FakePtxas fake(std::string("cat \"$input\" > \"$output\"\n"
                             "cat \"$input\" >> \"$output\"\n") +
                 kReport);
  const std::string ptx(100000, 'x'); // more than a pipe holds
  llvm::Expected<PtxasResult> plain =
      runPtxas(fake.path, ptx, hopper(), outOfProcess());
  ASSERT_TRUE(bool(plain)) << llvm::toString(plain.takeError());
  EXPECT_TRUE(plain->succeeded);
  EXPECT_EQ(plain->cubin, ptx + ptx);

  std::unique_ptr<StartedPtxas> started =
      StartedPtxas::start(fake.path, hopper(), outOfProcess());
  ASSERT_TRUE(started);
  EXPECT_TRUE(started->serves(fake.path, hopper(), outOfProcess()));
  PtxasOptions other = outOfProcess();
  other.lineInfo = true;
  EXPECT_FALSE(started->serves(fake.path, hopper(), other));
  std::this_thread::sleep_for(std::chrono::milliseconds(50)); // waiting on the pipe
  llvm::Expected<PtxasResult> piped =
      runPtxas(fake.path, ptx, hopper(), outOfProcess(), started.get());
  ASSERT_TRUE(bool(piped)) << llvm::toString(piped.takeError());
  EXPECT_TRUE(piped->succeeded);
  EXPECT_EQ(piped->cubin, ptx + ptx);
  ASSERT_EQ(piped->kernels.size(), 1u);
  EXPECT_EQ(piped->kernels[0].registers, 12);
  EXPECT_FALSE(started->serves(fake.path, hopper(), outOfProcess()));
}

TEST(PtxasProcess, InputOpenedOnlyAfterThePtxExists) {
  // A ptxas slower to start than the compile is to make the PTX opens the
  // file, never the pipe.
  FakePtxas fake(std::string("sleep 0.3\ncat \"$input\" > \"$output\"\n") +
                 kReport);
  std::unique_ptr<StartedPtxas> started =
      StartedPtxas::start(fake.path, hopper(), outOfProcess());
  ASSERT_TRUE(started);
  llvm::Expected<PtxasResult> result = started->finish(std::string(200000, 'y'));
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->cubin, std::string(200000, 'y'));
}

TEST(PtxasProcess, FailureReportsTheLogWithKernelPtx) {
  FakePtxas fake("cat \"$input\" > /dev/null\n"
                 "echo \"ptxas $input, line 3; error   : bad\"\nexit 255");
  std::unique_ptr<StartedPtxas> started =
      StartedPtxas::start(fake.path, hopper(), outOfProcess());
  ASSERT_TRUE(started);
  llvm::Expected<PtxasResult> result = started->finish("ptx");
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_FALSE(result->succeeded);
  EXPECT_NE(result->log.find("ptxas kernel.ptx, line 3; error"),
            std::string::npos)
      << result->log;
}

TEST(PtxasProcess, TimeLimitKillsIt) {
  FakePtxas fake("sleep 30");
  auto begin = std::chrono::steady_clock::now();
  llvm::Expected<PtxasResult> plain =
      runPtxas(fake.path, "ptx", hopper(), outOfProcess(1));
  ASSERT_FALSE(bool(plain));
  EXPECT_NE(llvm::toString(plain.takeError()).find("did not finish within 1 s"),
            std::string::npos);
  std::unique_ptr<StartedPtxas> started =
      StartedPtxas::start(fake.path, hopper(), outOfProcess(1));
  ASSERT_TRUE(started);
  llvm::Expected<PtxasResult> piped = started->finish("ptx");
  ASSERT_FALSE(bool(piped));
  EXPECT_NE(llvm::toString(piped.takeError()).find("did not finish within 1 s"),
            std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(10));
}

TEST(PtxasProcess, AStopAskedForKillsItSoon) {
  // A form assembled on speculation: its ptxas is killed soon after the
  // flag is raised from another thread, and the result is an error; a
  // flag never raised changes nothing.
  FakePtxas slow("sleep 30");
  std::atomic<bool> stop{false};
  std::thread raise([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop.store(true);
  });
  auto begin = std::chrono::steady_clock::now();
  llvm::Expected<PtxasResult> stopped =
      runPtxas(slow.path, "ptx", hopper(), outOfProcess(), nullptr, &stop);
  raise.join();
  ASSERT_FALSE(bool(stopped));
  EXPECT_NE(llvm::toString(stopped.takeError()).find("was stopped"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(5));

  FakePtxas quick(std::string(kReport) + "cat \"$input\" > \"$output\"");
  std::atomic<bool> never{false};
  llvm::Expected<PtxasResult> done =
      runPtxas(quick.path, "ptx", hopper(), outOfProcess(), nullptr, &never);
  ASSERT_TRUE(bool(done)) << llvm::toString(done.takeError());
  EXPECT_TRUE(done->succeeded);
}

TEST(PtxasProcess, NeverGivenItsPtxItEnds) {
  // The script records its pid, then waits for its input.
  FakePtxas fake("echo $$ > \"$(dirname \"$output\")/../pid\"\ncat \"$input\" > /dev/null\nsleep 30");
  std::string pidFile = (fake.dir + "/pid").str();
  ASSERT_EQ(setenv("TMPDIR", fake.dir.c_str(), 1), 0);
  {
    std::unique_ptr<StartedPtxas> started =
        StartedPtxas::start(fake.path, hopper(), outOfProcess());
    unsetenv("TMPDIR");
    ASSERT_TRUE(started);
    for (int i = 0; i < 200 && !llvm::sys::fs::exists(pidFile); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  auto text = llvm::MemoryBuffer::getFile(pidFile);
  ASSERT_TRUE(bool(text));
  int pid = std::stoi((*text)->getBuffer().str());
  EXPECT_NE(kill(pid, 0), 0) << "ptxas " << pid << " is still there";
  // Only the script and its pid file are left: the started ptxas's
  // directory went with it.
  std::error_code ec;
  int entries = 0;
  for (llvm::sys::fs::directory_iterator it(fake.dir, ec), end; it != end && !ec;
       it.increment(ec))
    ++entries;
  EXPECT_EQ(entries, 2);
}

TEST(PtxasProcess, AForkedChildDoesNotHoldItsInputOpen) {
  // A child forked while ptxas waits for its PTX gets copies of the pipe's
  // write end; ptxas sees the end of its input only once every copy is
  // closed, so the child must close its copies at once.
  FakePtxas fake(std::string("cat \"$input\" > \"$output\"\n") + kReport);
  std::unique_ptr<StartedPtxas> started =
      StartedPtxas::start(fake.path, hopper(), outOfProcess(20));
  ASSERT_TRUE(started);
  pid_t child = fork();
  if (child == 0) {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    _exit(0);
  }
  ASSERT_GT(child, 0);
  // ptxas (the script's cat) is reading the pipe by now.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto begin = std::chrono::steady_clock::now();
  llvm::Expected<PtxasResult> result = started->finish("ptx text");
  auto took = std::chrono::steady_clock::now() - begin;
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->cubin, "ptx text");
  EXPECT_LT(took, std::chrono::seconds(2));
}

TEST(PtxasProcess, AStartedPtxasThatFailsRunsAgainOnTheFile) {
  // This script refuses its input when it is a pipe (a ptxas that wants to
  // know its input's size first, say): the second run, on the file, makes
  // the cubin.
  FakePtxas fake(std::string("if [ -p \"$input\" ]; then echo \"pipe\"; exit 1; fi\n"
                             "cat \"$input\" > \"$output\"\n") +
                 kReport);
  std::unique_ptr<StartedPtxas> started =
      StartedPtxas::start(fake.path, hopper(), outOfProcess());
  ASSERT_TRUE(started);
  std::this_thread::sleep_for(std::chrono::milliseconds(50)); // it has seen the pipe
  llvm::Expected<PtxasResult> result =
      runPtxas(fake.path, "ptx text", hopper(), outOfProcess(), started.get());
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_TRUE(result->succeeded);
  EXPECT_EQ(result->cubin, "ptx text");
  EXPECT_EQ(result->log.find("pipe"), std::string::npos) << result->log;
}

TEST(PtxasLog, SerializedWarpGroupMmasAreReadFromTheNotes) {
  EXPECT_TRUE(serializedWarpGroupMmas(
      "ptxas info    : (C7515) Potential Performance Loss: wgmma.mma_async "
      "instructions are serialized due to non wgmma instructions defining "
      "accumulator registers of a wgmma between start and end of the "
      "pipeline stage in the function 'k'\nptxas info    : Used 179 registers"));
  EXPECT_FALSE(serializedWarpGroupMmas(
      "ptxas info    : Compiling entry function 'k' for 'sm_90a'\n"
      "ptxas info    : Used 196 registers, used 1 barriers"));
}

TEST(PtxasLog, SerializationForLackOfRegistersIsNotAPlacementOne) {
  const char *registers =
      "ptxas info    : (C7512) Potential Performance Loss: wgmma.mma_async "
      "instructions are serialized due to insufficient register resources "
      "for the function 'k'\n";
  const char *placement =
      "ptxas info    : (C7515) Potential Performance Loss: wgmma.mma_async "
      "instructions are serialized due to non wgmma instructions defining "
      "accumulator registers of a wgmma between start and end of the "
      "pipeline stage in the function 'k'\n";
  EXPECT_TRUE(serializedWarpGroupMmas(registers));
  EXPECT_FALSE(serializedWarpGroupMmasByPlacement(registers));
  EXPECT_TRUE(serializedWarpGroupMmasByPlacement(placement));
  EXPECT_TRUE(serializedWarpGroupMmasByPlacement(std::string(registers) +
                                                 placement));
  // A call the pipeline crosses (the assertion handler) stays a call
  // wherever the waits are.
  const char *call =
      "ptxas info    : (C7510) Potential Performance Loss: wgmma.mma_async "
      "instructions are serialized due to wgmma pipeline crossing function "
      "boundary at a function call in the function 'k'\n";
  EXPECT_TRUE(serializedWarpGroupMmas(call));
  EXPECT_FALSE(serializedWarpGroupMmasByPlacement(call));
  EXPECT_TRUE(serializedWarpGroupMmasByPlacement(std::string(call) + placement));
  EXPECT_FALSE(serializedWarpGroupMmasByPlacement(
      "ptxas info    : Used 196 registers, used 1 barriers"));
}
