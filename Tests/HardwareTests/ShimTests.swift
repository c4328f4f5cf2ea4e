import CCameraLoader
import Testing

@Test func cameraShimReportsLibcameraVersion() {
    let v = String(cString: ccamera_libcamera_version())
    #expect(v.hasPrefix("v0.") || v.hasPrefix("0."))
}
