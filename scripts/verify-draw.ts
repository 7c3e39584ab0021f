/**
 * Re-runs a public subscription's published draw (contract/ipo.ts drawWinners) and prints the
 * winners, so anyone can check the platform's result.
 *
 * Usage:
 *   npx tsx scripts/verify-draw.ts <offeringId> [baseUrl]   # reads POST <baseUrl>/api/vue/ipo/draw
 *   npx tsx scripts/verify-draw.ts --file draw.json         # the `data` of that answer, saved
 * baseUrl defaults to http://127.0.0.1:3000. Exit code 0 when the commitment matches the revealed
 * seed and the re-run equals the published winners, 1 otherwise (or when the seed is not revealed
 * yet), 2 on a usage error.
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { drawCommitment, drawWinners, type IpoDraw } from '../contract/ipo';

/** What the check found. */
export interface DrawCheck {
  commitmentMatches: boolean;
  /** The re-run's winners in ticket order ([] when the seed is not revealed). */
  winners: string[];
  winnersMatch: boolean;
  ok: boolean;
}

/** Checks a published draw: sha256(seed) = commitment and drawWinners(seed, qualified, units) = winners. */
export async function verifyDraw(
  d: Pick<IpoDraw, 'commitment' | 'seed' | 'qualified' | 'units' | 'winners'>,
): Promise<DrawCheck> {
  if (!d.seed) return { commitmentMatches: false, winners: [], winnersMatch: false, ok: false };
  const commitmentMatches = (await drawCommitment(d.seed)) === d.commitment;
  const winners = await drawWinners(d.seed, d.qualified, d.units);
  const winnersMatch = winners.length === d.winners.length && winners.every((w, i) => w === d.winners[i]);
  return { commitmentMatches, winners, winnersMatch, ok: commitmentMatches && winnersMatch };
}

async function main(argv: string[]): Promise<number> {
  let draw: IpoDraw;
  if (argv[0] === '--file' && argv[1]) {
    draw = JSON.parse(await readFile(argv[1], 'utf8')) as IpoDraw;
  } else if (argv[0] && /^\d+$/.test(argv[0])) {
    const base = argv[1] ?? 'http://127.0.0.1:3000';
    const res = await fetch(`${base}/api/vue/ipo/draw`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: Number(argv[0]) }),
    });
    const env = (await res.json()) as { status: number; msg: string; data: IpoDraw | null };
    if (env.status !== 1 || !env.data) {
      console.error(`refused: ${env.msg}`);
      return 1;
    }
    draw = env.data;
  } else {
    console.error('usage: verify-draw.ts <offeringId> [baseUrl] | --file draw.json');
    return 2;
  }
  const check = await verifyDraw(draw);
  console.log(`offering ${draw.offeringId}: ${draw.qualified.length} qualified, ${draw.units} units`);
  console.log(`commitment ${draw.commitment}`);
  if (!draw.seed) {
    console.log('seed not revealed yet (the draw has not run)');
    return 1;
  }
  console.log(`seed       ${draw.seed}`);
  console.log(`sha256(seed) = commitment: ${check.commitmentMatches ? 'yes' : 'NO'}`);
  console.log(`winners (re-run, ticket order): ${check.winners.join(' ')}`);
  console.log(`equal to the published winners: ${check.winnersMatch ? 'yes' : 'NO'}`);
  return check.ok ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
