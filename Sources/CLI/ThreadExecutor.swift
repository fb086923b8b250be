#if canImport(Glibc)
import Glibc
#endif

extension Ootd {
  /// Runs the command line on the calling thread (the process's main thread) and returns the
  /// exit code. `ootd` calls it instead of an `async` main: an async main hands the command to
  /// Dispatch's thread pool (two or three new threads) and then ends the main thread with
  /// `pthread_exit`, whose unwinding sorts every unwind entry of a static executable
  /// (370 M instructions). Here nothing starts a thread unless a command awaits one (a GitHub
  /// request runs on Dispatch's pool and resumes the command here).
  public static func mainOnThisThread(arguments: [String]) -> Int32 {
    StandardStreams.openClosed()
    let executor = ThreadExecutor()
    Task.detached(executorPreference: executor) { [executor] in
      executor.finish(await Ootd.main(arguments: arguments))
    }
    return executor.run()
  }
}

/// A task executor whose jobs run on the thread that called ``run()``, one at a time, in the
/// order they arrive (from this thread or from any other), until ``finish(_:)``.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
  // The queue and the result, guarded by `mutex`; `run()` sleeps on `arrived` when both are empty.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let arrived = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var jobs: [UnownedJob] = []
  private var next = 0
  private var result: Int32?

  init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(arrived, nil)
  }

  deinit {
    pthread_cond_destroy(arrived)
    pthread_mutex_destroy(mutex)
    arrived.deallocate()
    mutex.deallocate()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    pthread_mutex_lock(mutex)
    jobs.append(job)
    pthread_cond_signal(arrived)
    pthread_mutex_unlock(mutex)
  }

  /// Ends ``run()`` with `code` once the jobs already queued have run.
  func finish(_ code: Int32) {
    pthread_mutex_lock(mutex)
    result = code
    pthread_cond_signal(arrived)
    pthread_mutex_unlock(mutex)
  }

  /// Runs jobs as they arrive until ``finish(_:)``; returns its code.
  func run() -> Int32 {
    while true {
      pthread_mutex_lock(mutex)
      while next == jobs.count && result == nil { pthread_cond_wait(arrived, mutex) }
      if next == jobs.count, let result {
        pthread_mutex_unlock(mutex)
        return result
      }
      let job = jobs[next]
      next += 1
      if next == jobs.count {
        jobs.removeAll(keepingCapacity: true)
        next = 0
      }
      pthread_mutex_unlock(mutex)
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
