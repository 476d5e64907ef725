/** The event types the platform sends, as the API's OpenAPI document publishes them (its `webhooks`). */
import { api } from '../../api.ts';
import { useLoad } from '../../load.ts';

export function useEventTypes(): string[] {
  const [loaded] = useLoad(
    async () =>
      Object.keys((await api.get<{ webhooks?: Record<string, unknown> }>('/v1/openapi.json')).webhooks ?? {}),
    'event-types',
  );
  return loaded.kind === 'done' ? loaded.value : [];
}
