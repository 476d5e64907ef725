/** A QR code drawn in the page (offline too): a receipt's link at the till, a pairing link in the back office. */
import { useMemo } from 'react';
import encodeQR from '@paulmillr/qr';

/** The QR code as one SVG path of its dark modules (a quiet zone of four, as scanners expect). */
export function QrCode({
  text,
  label,
  size = 200,
  testId,
}: {
  text: string;
  /** Its accessible name: say "QR" in it, so a screen reader says what it is. */
  label: string;
  size?: number;
  testId?: string;
}) {
  const { path, width } = useMemo(() => {
    const modules = encodeQR(text, 'raw', { ecc: 'medium', border: 4 });
    let d = '';
    modules.forEach((row, y) => row.forEach((dark, x) => dark && (d += `M${x} ${y}h1v1h-1z`)));
    return { path: d, width: modules.length };
  }, [text]);
  return (
    <svg
      className="qr"
      role="img"
      aria-label={label}
      data-testid={testId}
      data-text={text}
      width={size}
      height={size}
      viewBox={`0 0 ${width} ${width}`}
      shapeRendering="crispEdges"
    >
      <rect width={width} height={width} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
