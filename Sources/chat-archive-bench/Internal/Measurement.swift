import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `d` with two decimals below 10, one above.
func fmt(_ d: Double) -> String { String(format: d < 10 ? "%.2f" : "%.1f", d) }

/// Monotonic time, for durations.
enum Clock {
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
    static func seconds(since t: UInt64) -> Double { Double(now - t) / 1e9 }
}

/// File sizes.
enum Files {
    static func size(_ p: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: p))?[.size] as? NSNumber)?.int64Value ?? 0
    }
    /// Bytes in MiB (the bench labels them so).
    static func mb(_ b: Int64) -> String { fmt(Double(b) / 1_048_576) }
}

/// This process's CPU time and memory.
enum Memory {
    /// User and system CPU time of this process (all threads), in seconds.
    static func cpuSeconds() -> Double {
        let (user, system) = cpuSplit()
        return user + system
    }

    /// User and system CPU time of this process (all threads), in seconds, apart: system time
    /// is the kernel's work for it, an ingest's file reads and writes above all.
    static func cpuSplit() -> (user: Double, system: Double) {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return (
            Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6,
            Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
        )
    }

    /// Peak resident set size of this process, in bytes.
    static func peakRSS() -> Int {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return u.ru_maxrss * 1024
    }
}

/// The largest size a file reaches while work runs: a thread samples it at a short interval (the WAL
/// of an ingest or a rebuild).
final class PeakFileSize: @unchecked Sendable {
    private let path: String
    private let lock = NSLock()
    private var peak: Int64 = 0
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    init(_ path: String) {
        self.path = path
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                let size = Files.size(path)
                lock.withLock { peak = max(peak, size) }
                Thread.sleep(forTimeInterval: 0.05)
            }
            done.signal()
        }
    }

    /// Stops sampling and returns the largest size seen.
    func stop() -> Int64 {
        lock.withLock { running = false }
        done.wait()
        return max(lock.withLock { peak }, Files.size(path))
    }
}
