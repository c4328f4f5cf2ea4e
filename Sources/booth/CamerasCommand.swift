import ArgumentParser
import Hardware

/// `booth cameras`: the cameras libcamera sees, one line each (id and model). No camera is not
/// an error: it says so and exits 0 (so `booth doctor` decides what a missing camera means).
struct CamerasCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cameras",
        abstract: "List the cameras libcamera finds (id and model).")

    func run() throws {
        let manager: LibcameraManager
        do {
            manager = try LibcameraManager()
        } catch {
            print("libcamera \(LibcameraManager.version): \(error)")
            throw ExitCode(1)
        }
        let cameras = manager.cameras
        print("libcamera \(LibcameraManager.version): \(cameras.count) camera\(cameras.count == 1 ? "" : "s")")
        for (i, camera) in cameras.enumerated() {
            print("\(i): \(camera.model.isEmpty ? "(unknown model)" : camera.model)  \(camera.id)")
        }
        if cameras.isEmpty {
            print("no camera found — check the ribbon cable or USB connection, and that the user is in the video group")
        }
    }
}
