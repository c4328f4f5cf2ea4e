#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A named pthread running one closure (what Foundation's `Thread` was for the kiosk), joinable.
public final class PosixThread: @unchecked Sendable {
    #if canImport(Darwin)
    private var handle: pthread_t? = nil
    #else
    private var handle = pthread_t()
    #endif
    private var joined = false

    /// Starts `body` on a new thread named `name` (the kernel keeps the first 15 bytes).
    public init(name: String, _ body: @escaping @Sendable () -> Void) {
        final class Start {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) { self.name = name; self.body = body }
        }
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        let rc = pthread_create(&handle, nil, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            PosixThread.setCurrentThreadName(start.name)
            start.body()
            return nil
        }, start)
        precondition(rc == 0, "pthread_create failed: \(rc)")
    }

    /// Names the calling thread (`ps -L`, `top -H`, gdb): its first 15 bytes, as the kernel keeps.
    private static func setCurrentThreadName(_ name: String) {
        #if canImport(Darwin)
        _ = pthread_setname_np(name)
        #else
        // Glibc's module does not export pthread_setname_np (a _GNU_SOURCE call); the kernel's
        // own interface is the thread's comm file.
        var bytes = Array(name.utf8.prefix(15))
        while !bytes.isEmpty, String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
        FileDescriptorIO.writeExisting("/proc/thread-self/comm", String(decoding: bytes, as: UTF8.self))
        #endif
    }

    /// Waits for the thread's closure to return. Call once.
    public func join() {
        precondition(!joined, "PosixThread.join called twice")
        joined = true
        #if canImport(Darwin)
        pthread_join(handle!, nil)
        #else
        pthread_join(handle, nil)
        #endif
    }

    deinit {
        if !joined {
            #if canImport(Darwin)
            pthread_detach(handle!)
            #else
            pthread_detach(handle)
            #endif
        }
    }
}
