/**
 * The camera as a scanner, where the browser offers `BarcodeDetector` (QR)
 * and the device has a camera; the door hides the button otherwise. A code
 * held in front of the camera counts once until another is shown (or a few
 * seconds pass), so one ticket is one scan.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';

interface Detector {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
}
type DetectorClass = new (options: { formats: string[] }) => Detector;

const detectorClass = (): DetectorClass | null =>
  (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector ?? null;

export const hasDoorCamera = (): boolean =>
  detectorClass() !== null && typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;

const LOOK_EVERY_MS = 150;
const SAME_CODE_MS = 3000;

export function useDoorCamera(
  video: RefObject<HTMLVideoElement | null>,
  on: boolean,
  onScan: (code: string) => void,
  onFailed: () => void,
): { running: boolean } {
  const handler = useRef(onScan);
  handler.current = onScan;
  const failed = useRef(onFailed);
  failed.current = onFailed;
  const [running, setRunning] = useState(false);
  useEffect(() => {
    const Detector = detectorClass();
    if (!on || !Detector) return;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let last = { code: '', at: 0 };
    const detector = new Detector({ formats: ['qr_code'] });
    const look = async () => {
      const element = video.current;
      if (stopped || !element) return;
      try {
        const found = await detector.detect(element);
        const code = found[0]?.rawValue;
        const now = Date.now();
        if (code && (code !== last.code || now - last.at > SAME_CODE_MS)) handler.current(code);
        if (code) last = { code, at: now };
      } catch {
        // A frame not ready yet: the next look reads the next one.
      }
      if (!stopped) timer = setTimeout(() => void look(), LOOK_EVERY_MS);
    };
    navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } }).then(
      async (media) => {
        if (stopped) return media.getTracks().forEach((track) => track.stop());
        stream = media;
        if (video.current) {
          video.current.srcObject = media;
          await video.current.play().catch(() => undefined);
        }
        setRunning(true);
        void look();
      },
      () => failed.current(),
    );
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
      setRunning(false);
    };
  }, [on, video]);
  return { running };
}
