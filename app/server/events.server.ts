// The in-process bus behind the live fee stream. Every fee write publishes here.

export interface FeeEvent {
  cents: number;
}

type Listener = (event: FeeEvent) => void;

const listeners = new Set<Listener>();
const closers = new Set<() => void>();

export function subscribeToFee(listener: Listener, close: () => void): () => void {
  listeners.add(listener);
  closers.add(close);
  return () => {
    listeners.delete(listener);
    closers.delete(close);
  };
}

export function publishFee(event: FeeEvent): void {
  for (const listener of listeners) listener(event);
}

export function subscriberCount(): number {
  return listeners.size;
}

/** On shutdown: end every open stream so the server can close. */
export function closeAllStreams(): void {
  for (const close of [...closers]) close();
  listeners.clear();
  closers.clear();
}
