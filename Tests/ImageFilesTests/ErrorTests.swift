import ImageFiles
import Testing

@Test func errorsNameTheFile() {
    #expect(ImageFileError.corrupt(path: "a.jpg", reason: "truncated").description.hasPrefix("a.jpg:"))
}
