/**
 * The member's support events over the market socket (contract/support.ts), through the market
 * worker's `watchSupport`; kept out of worker-bridge.ts so the first screen does not carry it.
 */
import type * as Comlink from 'comlink';
import type { Observable } from 'rxjs';
import type { SupportEvent } from '../../../contract/support';
import type { StreamHandle } from '../../../workers/protocol';
import { getRemote, remoteObservable } from '../../live/worker-bridge';

/**
 * Support events authenticated with `token`; a `resync` event means events were missed
 * (reconnect, outbound budget): reload the history over REST.
 */
export function supportEvents$(token: string): Observable<SupportEvent> {
  return remoteObservable<SupportEvent, SupportEvent>(
    (cb) => getRemote().watchSupport(token, cb) as unknown as Promise<Comlink.Remote<StreamHandle>>,
    () => (e) => e,
  );
}
