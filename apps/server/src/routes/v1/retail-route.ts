import { defineRoute, type RouteAuth, type RouteSpec } from '../../http/route.ts';
import { notifyEventsWritten } from '../../services/events.ts';

const wake = () => Promise.resolve(notifyEventsWritten());

/** A retail write: every one records events, so the webhook dispatcher is woken once it commits. */
export function defineWrite<B, Q, P, R, A extends RouteAuth>(spec: RouteSpec<B, Q, P, R, A>) {
  return defineRoute<B, Q, P, R, A>({
    ...spec,
    handler: (input) => {
      input.afterCommit(wake);
      return spec.handler(input);
    },
  });
}
