// `SystemCalls`, `Errno` and `SystemCallError` live in the Syscalls target, below ImageFiles (whose
// `FileIO` goes through them too); users of Hardware keep seeing them through `import Hardware`.
@_exported import Syscalls
