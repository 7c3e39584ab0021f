/**
 * The client's address, the key of every per-address limit (login and registration throttling,
 * and any other counter per client). Fastify resolves it (`request.ip`) with its `trustProxy`
 * option, which buildApp sets from TRUST_PROXY (server/config.ts): when the connection comes
 * from one of those proxies, the address is the nearest untrusted one in `X-Forwarded-For`;
 * from anywhere else the header is ignored and the address is the connection's peer, so a
 * client cannot pick its own address by sending the header.
 */
import type { FastifyRequest } from 'fastify';

/** The address per-address limits count `req` under (see the module docstring). */
export function clientAddress(req: FastifyRequest): string {
  return req.ip;
}
