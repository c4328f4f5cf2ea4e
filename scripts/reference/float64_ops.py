"""Float64 versions of the operators Booth's five models use, written from TFLite's reference
kernels (tensorflow/lite/kernels/internal/reference/*.h) for the per-operator check in
intermediates.py --local: each implementation's float32 output is compared with float64 evaluated
on that implementation's own float32 inputs, which isolates the arithmetic one operator adds.
LiteRT's own figures validate these functions; Booth's show whether its semantics match.
"""
import numpy as np
from ai_edge_litert import schema_py_generated as schema

ACT = {0: (-np.inf, np.inf), 1: (0.0, np.inf), 2: (-1.0, 1.0), 3: (0.0, 6.0)}


def same_padding(size, k, stride, dilation=1):
    out = -(-size // stride)
    total = max((out - 1) * stride + (k - 1) * dilation + 1 - size, 0)
    return out, total // 2


def window(size, k, stride, padding, dilation=1):
    if padding == schema.Padding.SAME:
        return same_padding(size, k, stride, dilation)
    return (size - (k - 1) * dilation - 1) // stride + 1, 0


def conv(x, w, b, o, depthwise=False):
    """x [N,H,W,C]; w [O,kH,kW,I] (conv) or [1,kH,kW,O] (depthwise)."""
    n, h, wd, c = x.shape
    kh, kw = w.shape[1], w.shape[2]
    dh, dw = o.dilationHFactor or 1, o.dilationWFactor or 1
    oh, top = window(h, kh, o.strideH, o.padding, dh)
    ow, left = window(wd, kw, o.strideW, o.padding, dw)
    pad = np.zeros((n, h + oh * o.strideH + kh * dh, wd + ow * o.strideW + kw * dw, c))
    pad[:, top:top + h, left:left + wd] = x
    oc = w.shape[3] if depthwise else w.shape[0]
    y = np.zeros((n, oh, ow, oc)) + (0 if b is None else b)
    for ky in range(kh):
        for kx in range(kw):
            patch = pad[:, ky * dh:ky * dh + oh * o.strideH:o.strideH, kx * dw:kx * dw + ow * o.strideW:o.strideW]
            if depthwise:
                y += np.repeat(patch, oc // c, axis=3) * w[0, ky, kx]
            else:
                y += np.einsum("nhwc,oc->nhwo", patch, w[:, ky, kx, :])
    return np.clip(y, *ACT[o.fusedActivationFunction])


def transpose_conv(x, w, b, stride_h, stride_w, same):
    """MediaPipe Convolution2DTransposeBias: y[i·s + k − pad] += w[o,k,·]·x[i] (+ bias)."""
    n, h, wd, c = x.shape
    oc, kh, kw = w.shape[0], w.shape[1], w.shape[2]
    oh, ow = (h * stride_h, wd * stride_w) if same else ((h - 1) * stride_h + kh, (wd - 1) * stride_w + kw)
    top = max((h - 1) * stride_h + kh - oh, 0) // 2
    left = max((wd - 1) * stride_w + kw - ow, 0) // 2
    full = np.zeros((n, (h - 1) * stride_h + kh, (wd - 1) * stride_w + kw, oc))
    for ky in range(kh):
        for kx in range(kw):
            full[:, ky:ky + h * stride_h:stride_h, kx:kx + wd * stride_w:stride_w] += np.einsum("nhwc,oc->nhwo", x, w[:, ky, kx, :])
    return full[:, top:top + oh, left:left + ow] + b


def pool(x, o, average):
    n, h, wd, c = x.shape
    oh, top = window(h, o.filterHeight, o.strideH, o.padding)
    ow, left = window(wd, o.filterWidth, o.strideW, o.padding)
    y = np.zeros((n, oh, ow, c))
    for i in range(oh):
        y0 = i * o.strideH - top
        ys = slice(max(y0, 0), min(y0 + o.filterHeight, h))
        for j in range(ow):
            x0 = j * o.strideW - left
            xs = slice(max(x0, 0), min(x0 + o.filterWidth, wd))
            v = x[:, ys, xs]
            y[:, i, j] = v.mean(axis=(1, 2)) if average else v.max(axis=(1, 2))
    return np.clip(y, *ACT[o.fusedActivationFunction])


def resize_bilinear(x, size, align_corners, half_pixel):
    n, h, wd, c = x.shape
    oh, ow = size

    def axis(insize, outsize):
        scale = (insize - 1) / (outsize - 1) if align_corners and outsize > 1 else insize / outsize
        v = np.arange(outsize, dtype=np.float64)
        src = (v + 0.5) * scale - 0.5 if half_pixel else v * scale
        lo = np.maximum(np.floor(src), 0).astype(int)
        hi = np.minimum(np.ceil(src), insize - 1).astype(int)
        return src - lo, lo, hi

    fy, y0, y1 = axis(h, oh)
    fx, x0, x1 = axis(wd, ow)
    fy, fx = fy[None, :, None, None], fx[None, None, :, None]
    top = x[:, y0][:, :, x0] * (1 - fx) + x[:, y0][:, :, x1] * fx
    bottom = x[:, y1][:, :, x0] * (1 - fx) + x[:, y1][:, :, x1] * fx
    return top * (1 - fy) + bottom * fy


def evaluate(name, op, inputs, out_shape):
    """Float64 output of one operator; None for an operator without a float64 version here."""
    o = op.builtinOptions
    x = inputs[0]
    if name == "CONV_2D":
        return conv(x, inputs[1], inputs[2] if len(inputs) > 2 else None, o)
    if name == "DEPTHWISE_CONV_2D":
        return conv(x, inputs[1], inputs[2] if len(inputs) > 2 else None, o, depthwise=True)
    if name == "Convolution2DTransposeBias":
        padding, sw, sh = np.frombuffer(bytes(op.customOptions), "<i4")[:3]
        return transpose_conv(x, inputs[1], inputs[2], sh, sw, padding == 1)
    if name in ("ADD", "MUL"):
        y = x + inputs[1] if name == "ADD" else x * inputs[1]
        return np.clip(y, *ACT[o.fusedActivationFunction])
    if name == "PRELU":
        return np.where(x < 0, x * inputs[1], x)
    if name == "RELU":
        return np.maximum(x, 0)
    if name == "HARD_SWISH":
        return x * np.clip(x + 3, 0, 6) / 6
    if name == "LOGISTIC":
        with np.errstate(over="ignore"):  # exp(-x) = inf for x < -709 gives the exact limit 0
            return 1 / (1 + np.exp(-x))
    if name in ("AVERAGE_POOL_2D", "MAX_POOL_2D"):
        return pool(x, o, name == "AVERAGE_POOL_2D")
    if name == "MEAN":
        return x.mean(axis=tuple(int(a) % x.ndim for a in np.ravel(inputs[1])), keepdims=True).reshape(out_shape)
    if name == "PAD":
        return np.pad(x, [tuple(int(v) for v in p) for p in inputs[1].astype(int).reshape(-1, 2)])
    if name == "RESHAPE":
        return x.reshape(out_shape)
    if name == "CONCATENATION":
        return np.clip(np.concatenate(inputs, axis=o.axis), *ACT[o.fusedActivationFunction])
    if name == "RESIZE_BILINEAR":
        return resize_bilinear(x, [int(v) for v in inputs[1]], o.alignCorners, o.halfPixelCenters)
    return None
