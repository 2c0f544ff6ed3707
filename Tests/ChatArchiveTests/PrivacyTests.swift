import ChatArchive
import ChatTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Privacy (issue 6, part 6): archive files are readable by their owner only, and the product
/// never opens a network connection.
@Suite struct PrivacyTests {
    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions].flatMap {
            ($0 as? NSNumber)?.intValue
        }
    }

    /// A JSON Lines export big enough that an ingest of it runs for a while.
    static func bigExport(items: Int = 20_000) throws -> String {
        var lines = [Lines.chat("p1", name: "Private")]
        for k in 0..<items {
            lines.append(
                Lines.item(
                    "p1", "i\(k)",
                    ts: String(format: "2024-05-%02dT10:%02d:%02dZ", 1 + k / 3600 % 28, k / 60 % 60, k % 60),
                    text: "private words \(k)"))
        }
        return try TestArchive.writeFile(lines.joined(separator: "\n"), name: "private.jsonl")
    }

    @Test func theArchiveAndItsWALAndSharedMemoryFilesAreOwnerOnlyEvenWithAPermissiveUmask() throws {
        let folder = TestTemporary.folder("privacy") + "/new folder"
        let archive = folder + "/archive.sqlite"
        let export = try Self.bigExport()
        // umask 000 would give 0666 files and 0777 folders to a program that relied on it.
        let child = try ChildProcess(
            ChildProcess.chatArchiveBinary, ["ingest", "--archive", archive, export], shellPrefix: "umask 000")
        var seen: [String: Int] = [:]
        while child.isRunning {
            if let wal = Self.mode(archive + "-wal"), let shm = Self.mode(archive + "-shm"), let db = Self.mode(archive)
            {
                seen = ["archive": db, "wal": wal, "shm": shm]
                child.kill(SIGKILL)  // stop it while the companions exist
                break
            }
            usleep(1_000)
        }
        child.wait()
        try #require(!seen.isEmpty, "the ingest ended before its WAL was seen")
        #expect(seen == ["archive": 0o600, "wal": 0o600, "shm": 0o600])
        #expect(Self.mode(folder) == 0o700)
        // A complete run, and a later one reopening the archive, keep the modes.
        let done = try ChildProcess.run(
            ChildProcess.chatArchiveBinary, ["ingest", "--archive", archive, export], shellPrefix: "umask 000")
        #expect(done.status == 0, "\(done.err)")
        for suffix in ["", "-wal", "-shm"] {
            if let m = Self.mode(archive + suffix) { #expect(m == 0o600, "\(suffix)") }
        }
    }

    @Test func anArchiveOpenInThisProcessKeepsItsCompanionsPrivate() async throws {
        let path = TestArchive.temporaryPath()
        let archive = try Archive(path: path)
        _ = try archive.ingestSync([
            try TestArchive.writeFile(
                Lines.chat("a") + "\n" + Lines.item("a", "1", ts: "2024-01-01T00:00:00Z", text: "x"))
        ])
        _ = try await archive.search("x")
        for suffix in ["", "-wal", "-shm"] {
            #expect(Self.mode(path + suffix) == 0o600, "\(suffix)")
        }
    }

    // MARK: No network

    /// A shared library preloaded into the CLI that records any attempt at a network socket:
    /// it overrides `socket()`/`connect()` (what code calling libc uses), and installs a seccomp
    /// filter that traps the `socket`/`socketpair` system calls for every family but AF_UNIX
    /// (what libc's own internals and raw system calls use, which preloading cannot see). Either
    /// writes a marker file; the seccomp trap then ends the process with status 97.
    static let guardSource = #"""
        #define _GNU_SOURCE
        #include <errno.h>
        #include <fcntl.h>
        #include <linux/audit.h>
        #include <linux/filter.h>
        #include <linux/seccomp.h>
        #include <signal.h>
        #include <stddef.h>
        #include <stdlib.h>
        #include <string.h>
        #include <sys/prctl.h>
        #include <sys/socket.h>
        #include <sys/syscall.h>
        #include <unistd.h>

        static void mark(const char *what) {
            const char *path = getenv("NETGUARD_MARKER");
            if (!path) return;
            int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
            if (fd >= 0) { (void)!write(fd, what, strlen(what)); (void)!write(fd, "\n", 1); close(fd); }
        }

        static void on_sigsys(int sig, siginfo_t *info, void *ctx) {
            (void)sig; (void)info; (void)ctx;
            mark("socket system call");
            _exit(97);
        }

        #if defined(__x86_64__)
        #define NETGUARD_ARCH AUDIT_ARCH_X86_64
        #elif defined(__aarch64__)
        #define NETGUARD_ARCH AUDIT_ARCH_AARCH64
        #endif

        __attribute__((constructor)) static void netguard_init(void) {
            const char *how = "preload";
        #ifdef NETGUARD_ARCH
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_sigaction = on_sigsys;
            sa.sa_flags = SA_SIGINFO;
            sigaction(SIGSYS, &sa, NULL);
            struct sock_filter filter[] = {
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NETGUARD_ARCH, 1, 0),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 2, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socketpair, 1, 0),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
            };
            struct sock_fprog prog = { .len = sizeof filter / sizeof filter[0], .filter = filter };
            if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0) how = "seccomp";
        #endif
            const char *loaded = getenv("NETGUARD_LOADED");
            if (loaded) {
                int fd = open(loaded, O_WRONLY | O_CREAT | O_TRUNC, 0600);
                if (fd >= 0) { (void)!write(fd, how, strlen(how)); close(fd); }
            }
        }

        int socket(int domain, int type, int protocol) {
            if (domain != AF_UNIX) { mark("socket()"); errno = EACCES; return -1; }
            return (int)syscall(SYS_socket, domain, type, protocol);
        }

        int connect(int fd, const struct sockaddr *addr, socklen_t len) {
            if (addr && addr->sa_family != AF_UNIX) { mark("connect()"); errno = EACCES; return -1; }
            return (int)syscall(SYS_connect, fd, addr, len);
        }
        """#

    /// A program that opens an Internet socket, through libc or by a raw system call: the
    /// guard's control, proving it sees what it must.
    static let probeSource = #"""
        #include <netinet/in.h>
        #include <sys/socket.h>
        #include <sys/syscall.h>
        #include <unistd.h>
        int main(int argc, char **argv) {
            if (argc > 1) return syscall(SYS_socket, AF_INET, SOCK_STREAM, 0) >= 0 ? 0 : 1;
            return socket(AF_INET6, SOCK_DGRAM, 0) >= 0 ? 0 : 1;
        }
        """#

    static var compiler: String? {
        ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Compiles the guard and the probe; returns their paths.
    static func build() throws -> (guard: String, probe: String) {
        let dir = TestTemporary.folder("netguard")
        guard let cc = compiler else { throw TestFailure("no C compiler") }
        try guardSource.write(toFile: dir + "/netguard.c", atomically: true, encoding: .utf8)
        try probeSource.write(toFile: dir + "/probe.c", atomically: true, encoding: .utf8)
        for (args, what) in [
            (["-shared", "-fPIC", "-O1", "-o", dir + "/netguard.so", dir + "/netguard.c"], "guard"),
            (["-O1", "-o", dir + "/probe", dir + "/probe.c"], "probe"),
        ] {
            let r = try ChildProcess.run(cc, args)
            guard r.status == 0 else { throw TestFailure("cannot compile the \(what): \(r.err)") }
        }
        return (dir + "/netguard.so", dir + "/probe")
    }

    /// Runs `executable` under the guard; returns its result, the network attempts it made,
    /// and how the guard was active.
    static func guarded(_ guardLibrary: String, _ executable: String, _ args: [String]) throws -> (
        ChildProcess.Result, attempts: String, active: String
    ) {
        let dir = TestTemporary.folder("guarded")
        let r = try ChildProcess.run(
            executable, args,
            environment: [
                "LD_PRELOAD": guardLibrary, "NETGUARD_MARKER": dir + "/attempts", "NETGUARD_LOADED": dir + "/loaded",
            ])
        let read = { (p: String) in (try? String(contentsOfFile: p, encoding: .utf8)) ?? "" }
        return (r, read(dir + "/attempts"), read(dir + "/loaded"))
    }

    @Test(.enabled(if: compiler != nil, "needs a C compiler to build the network guard"))
    func theCommandsNeverOpenANetworkConnection() throws {
        let (lib, probe) = try Self.build()
        // The control: the guard sees both a libc socket() and a raw system call.
        let viaLibc = try Self.guarded(lib, probe, [])
        #expect(viaLibc.attempts.contains("socket()"))
        let raw = try Self.guarded(lib, probe, ["raw"])
        if raw.active == "seccomp" {
            #expect(raw.attempts.contains("socket system call"))
            #expect(raw.0.status == 97)
        }

        let archive = TestArchive.temporaryPath()
        let sample = TestArchive.corpusPath + "/sample"
        let cli = ChildProcess.chatArchiveBinary
        let runs: [[String]] = [
            [
                "ingest", "--archive", archive, sample + "/chats-1.jsonl", sample + "/chats-2.jsonl",
                TestArchive.corpusPath + "/telegram/single-chat",
                TestArchive.corpusPath + "/whatsapp/android-en-GB",
                TestArchive.corpusPath + "/simplex/android-group.json",
            ],
            ["search", "--archive", archive, "--json", "Heinestraße"],
            ["search", "--archive", archive, "https://example.com has:link"],
            ["chats", "--archive", archive, "--filter", "groups"],
            ["items", "--archive", archive, "--chat", "g-trip", "--last", "10"],
            ["stats", "--archive", archive],
            ["check", "--archive", archive],
            ["check", "--repair", "--archive", archive],
            ["markdown", "--json", "*bold* https://simplex.chat @alice"],
            ["demo"],
        ]
        for args in runs {
            let (r, attempts, active) = try Self.guarded(lib, cli, args)
            #expect(!active.isEmpty, "the guard was not loaded into chat-archive \(args[0])")
            #expect(attempts.isEmpty, "chat-archive \(args[0]) tried the network: \(attempts)")
            #expect(r.status == 0, "chat-archive \(args.joined(separator: " ")): \(r.err)")
        }
    }
}
