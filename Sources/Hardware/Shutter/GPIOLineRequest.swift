import CSyscalls

/// Where a GPIO line is: the chip's character device and the line offset on it (board file data).
public struct GPIOLine: Sendable, Equatable {
    public var chipPath: String
    public var offset: UInt32
    public init(chipPath: String, offset: UInt32) {
        self.chipPath = chipPath
        self.offset = offset
    }
}

/// Builders for `struct gpio_v2_line_request` (GPIO character device uAPI v2, <linux/gpio.h>).
/// C arrays are imported as tuples; these write them through raw bytes.
enum GPIOLineRequest {
    static let flagActiveLow = UInt64(GPIO_V2_LINE_FLAG_ACTIVE_LOW.rawValue)
    static let flagInput = UInt64(GPIO_V2_LINE_FLAG_INPUT.rawValue)
    static let flagOutput = UInt64(GPIO_V2_LINE_FLAG_OUTPUT.rawValue)
    static let flagEdgeRising = UInt64(GPIO_V2_LINE_FLAG_EDGE_RISING.rawValue)
    static let flagEdgeFalling = UInt64(GPIO_V2_LINE_FLAG_EDGE_FALLING.rawValue)
    static let flagBiasPullUp = UInt64(GPIO_V2_LINE_FLAG_BIAS_PULL_UP.rawValue)
    static let flagBiasDisabled = UInt64(GPIO_V2_LINE_FLAG_BIAS_DISABLED.rawValue)
    static let attrDebounce = UInt32(GPIO_V2_LINE_ATTR_ID_DEBOUNCE.rawValue)
    static let attrOutputValues = UInt32(GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES.rawValue)

    /// A one-line request with `flags`, the consumer label, and the given attributes (each
    /// applied to the single line, mask bit 0).
    static func make(offset: UInt32, consumer: String, flags: UInt64, eventBufferSize: UInt32,
                     debounceMicroseconds: UInt32?, outputValue: Bool?) -> gpio_v2_line_request {
        var request = gpio_v2_line_request()
        withUnsafeMutableBytes(of: &request.offsets) { $0.storeBytes(of: offset, toByteOffset: 0, as: UInt32.self) }
        withUnsafeMutableBytes(of: &request.consumer) { bytes in
            var i = 0
            for byte in consumer.utf8 where i < bytes.count - 1 {
                bytes[i] = byte
                i += 1
            }
            bytes[i] = 0
        }
        request.num_lines = 1
        request.event_buffer_size = eventBufferSize
        request.config.flags = flags
        var attributes = 0
        withUnsafeMutableBytes(of: &request.config.attrs) { raw in
            let attrs = raw.bindMemory(to: gpio_v2_line_config_attribute.self)
            if let debounce = debounceMicroseconds, debounce > 0 {
                attrs[attributes].attr.id = attrDebounce
                attrs[attributes].attr.debounce_period_us = debounce
                attrs[attributes].mask = 1
                attributes += 1
            }
            if let value = outputValue {
                attrs[attributes].attr.id = attrOutputValues
                attrs[attributes].attr.values = value ? 1 : 0
                attrs[attributes].mask = 1
                attributes += 1
            }
        }
        request.config.num_attrs = UInt32(attributes)
        return request
    }
}
