/**
 * antd-mobile's React 19 render hook for an entry (src/ui/antd-render.ts): the member app loads
 * it right after the first render, the operator console at start.
 */
import '../ui/antd-render';
