/**
 * The door's sounds on Web Audio: two rising notes for a holder let in, three
 * low buzzes for any refusal, so staff hear the verdict without looking.
 */
let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (typeof AudioContext === 'undefined') return null;
  context ??= new AudioContext();
  if (context.state === 'suspended') void context.resume();
  return context;
}

function tone(ctx: AudioContext, at: number, frequency: number, seconds: number, wave: OscillatorType) {
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = wave;
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(0.25, at);
  gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(at);
  oscillator.stop(at + seconds);
}

export function playVerdict(admitted: boolean): void {
  try {
    const ctx = audio();
    if (!ctx) return;
    const now = ctx.currentTime;
    if (admitted) {
      tone(ctx, now, 880, 0.12, 'sine');
      tone(ctx, now + 0.13, 1320, 0.18, 'sine');
    } else for (let i = 0; i < 3; i++) tone(ctx, now + i * 0.16, 200, 0.13, 'square');
  } catch {
    // A door without sound still shows its verdict.
  }
}
