/// YCbCr → RGB conversion coefficients in Q14 fixed point (value × 16384, rounded).
///
/// For 8-bit samples Y, U (Cb), V (Cr):
/// ```
/// y' = (Y - yOffset) * yGain      u' = U - 128      v' = V - 128
/// R = clamp((y' + rV*v'          + 8192) >> 14)
/// G = clamp((y' - gU*u' - gV*v'  + 8192) >> 14)
/// B = clamp((y' + bU*u'          + 8192) >> 14)
/// ```
/// `>>` is an arithmetic shift (floor), clamp is to 0...255. All terms fit in Int32.
/// With Kr, Kb the matrix's luma weights and Kg = 1 - Kr - Kb:
/// rV = 2(1-Kr)·c, bU = 2(1-Kb)·c, gU = 2Kb(1-Kb)/Kg·c, gV = 2Kr(1-Kr)/Kg·c, where
/// c = 255/224 and yGain = 255/219 for limited ("video", Y 16–235, C 16–240) range, and
/// c = yGain = 1 for full range (JFIF).
public struct YUVMatrix: Sendable, Equatable {
    public let yOffset: Int32
    public let yGain: Int32
    public let rV: Int32
    public let gU: Int32
    public let gV: Int32
    public let bU: Int32

    public init(yOffset: Int32, yGain: Int32, rV: Int32, gU: Int32, gV: Int32, bU: Int32) {
        self.yOffset = yOffset
        self.yGain = yGain
        self.rV = rV
        self.gU = gU
        self.gV = gV
        self.bU = bU
    }

    /// ITU-R BT.601 (Kr 0.299, Kb 0.114), limited range: what libcamera gives for SD/sYCC-less streams.
    public static let bt601Limited = YUVMatrix(yOffset: 16, yGain: 19077, rV: 26149, gU: 6419, gV: 13320, bU: 33050)
    /// BT.601 full range, as in JPEG/JFIF.
    public static let bt601Full = YUVMatrix(yOffset: 0, yGain: 16384, rV: 22970, gU: 5638, gV: 11700, bU: 29032)
    /// ITU-R BT.709 (Kr 0.2126, Kb 0.0722), limited range (HD video, Raspberry Pi "Rec709").
    public static let bt709Limited = YUVMatrix(yOffset: 16, yGain: 19077, rV: 29372, gU: 3494, gV: 8731, bU: 34610)
}
