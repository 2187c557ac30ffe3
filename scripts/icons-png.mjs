// PNG and raster helpers for the icon scripts. PNG reading and writing is pngjs's (any bit depth,
// colour type, filter and interlace); only the downscale is ours: pngjs has none, and the icons
// want an area-averaging filter in premultiplied alpha (below), which the resize of png-to-ico
// (bicubic on straight alpha) does not do.
import pngjs from 'pngjs';

const { PNG } = pngjs;

/** An RGBA image: width, height and width*height*4 bytes, rows top to bottom. */
export function encodePng({ width, height, data }) {
  const png = new PNG({ width, height, colorType: 6, inputColorType: 6, bitDepth: 8, inputHasAlpha: true });
  data.copy(png.data);
  return PNG.sync.write(png, { colorType: 6, deflateLevel: 9 });
}

/** Decodes any PNG to 8-bit RGBA (pngjs converts grey, palette, RGB and 16-bit). */
export function decodePng(png) {
  const { width, height, data } = PNG.sync.read(png);
  return { width, height, data };
}

/**
 * Area-averaging downscale: every target pixel is the mean of the source area it covers
 * (fractional edges weighted), in premultiplied alpha so transparent corners do not darken the
 * rim. Exact for integer factors, correct for any (1024 → 48 included).
 */
export function resize(image, size) {
  const { width, height, data } = image;
  if (size > width || size > height) throw new Error(`cannot upscale ${width}x${height} to ${size}x${size}`);
  const out = Buffer.alloc(size * size * 4);
  const sx = width / size;
  const sy = height / size;
  for (let ty = 0; ty < size; ty++) {
    const y0 = ty * sy;
    const y1 = y0 + sy;
    for (let tx = 0; tx < size; tx++) {
      const x0 = tx * sx;
      const x1 = x0 + sx;
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let area = 0;
      for (let y = Math.floor(y0); y < Math.ceil(y1); y++) {
        const wy = Math.min(y + 1, y1) - Math.max(y, y0);
        for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
          const w = wy * (Math.min(x + 1, x1) - Math.max(x, x0));
          const i = (y * width + x) * 4;
          const alpha = (data[i + 3] / 255) * w;
          r += data[i] * alpha;
          g += data[i + 1] * alpha;
          b += data[i + 2] * alpha;
          a += alpha;
          area += w;
        }
      }
      const o = (ty * size + tx) * 4;
      if (a > 0) {
        out[o] = Math.round(r / a);
        out[o + 1] = Math.round(g / a);
        out[o + 2] = Math.round(b / a);
      }
      out[o + 3] = Math.round((a / area) * 255);
    }
  }
  return { width: size, height: size, data: out };
}
