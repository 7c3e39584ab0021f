/**
 * Mirrors the market worker's status into the store. Its own chunk (RxJS, Comlink, the worker
 * bridge), loaded by the shell after the first paint: the first screen does not wait for it.
 */
import { useMarketStatusBridge } from '../live/hooks';

/** Renders nothing; mounted once at the root. */
export default function MarketStatusBridge() {
  useMarketStatusBridge();
  return null;
}
