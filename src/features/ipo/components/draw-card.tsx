/**
 * The published draw of an offering: the commitment sha256(seed) (shown from the start), the
 * revealed seed and the winners after the draw, the member's own application number and result,
 * and "verify": the browser re-runs contract/ipo.ts drawWinners (Web Crypto) on the published list
 * and compares it with the published winners and the seed with the commitment.
 */
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { drawCommitment, drawWinners, type IpoApplication, type IpoDraw } from '../../../../contract/ipo';
import { KvLine } from '../../../ui/kv-line';

type Verdict = { commitment: boolean; winners: boolean; mine: boolean | null } | null;

export function DrawCard({ draw, application }: { draw: IpoDraw; application: IpoApplication | null }) {
  const { t } = useTranslation();
  const [verdict, setVerdict] = useState<Verdict>(null);
  const [busy, setBusy] = useState(false);
  const verify = async () => {
    if (!draw.seed) return;
    setBusy(true);
    try {
      const again = await drawWinners(draw.seed, draw.qualified, draw.units);
      setVerdict({
        commitment: (await drawCommitment(draw.seed)) === draw.commitment,
        winners: again.length === draw.winners.length && again.every((w, i) => w === draw.winners[i]),
        mine: application ? again.includes(application.applicationNo) : null,
      });
    } finally {
      setBusy(false);
    }
  };
  const myNo = application?.applicationNo;
  const drawn = draw.seed !== null;
  return (
    <section className="card" data-testid="ipo-draw">
      <h3 className="card-title">{t('ipo.draw.title')}</h3>
      <p className="muted small">{t('ipo.draw.how')}</p>
      <KvLine
        block
        label={t('ipo.draw.commitment')}
        value={<span className="ipo-hash">{draw.commitment}</span>}
      />
      <KvLine
        block={drawn}
        label={t('ipo.draw.seed')}
        value={
          drawn ? (
            <span className="ipo-hash" data-testid="ipo-seed">
              {draw.seed}
            </span>
          ) : (
            t('ipo.draw.notRevealed')
          )
        }
      />
      <KvLine
        label={t('ipo.draw.qualified')}
        value={drawn || draw.qualified.length ? String(draw.qualified.length) : ''}
      />
      <KvLine label={t('ipo.units')} value={String(draw.units)} />
      {drawn && (
        <KvLine
          label={t('ipo.draw.result')}
          value={t(draw.oversubscribed ? 'ipo.draw.oversubscribed' : 'ipo.draw.allWin', {
            n: draw.winners.length,
          })}
        />
      )}
      {myNo && <KvLine label={t('ipo.draw.myNo')} value={myNo} testId="ipo-my-no" />}
      {myNo && drawn && (
        <KvLine
          label={t('ipo.draw.myResult')}
          value={draw.winners.includes(myNo) ? t('ipo.status.won') : t('ipo.status.notWon')}
          testId="ipo-my-result"
        />
      )}
      {drawn && (
        <div className="ipo-actions">
          <Button
            size="small"
            color="primary"
            fill="outline"
            loading={busy}
            onClick={verify}
            data-testid="ipo-verify"
          >
            {t('ipo.draw.verify')}
          </Button>
        </div>
      )}
      {verdict && (
        <div
          data-testid="ipo-verdict"
          className={verdict.commitment && verdict.winners ? 'ipo-verify-ok' : 'ipo-verify-bad'}
        >
          <div>{t(verdict.commitment ? 'ipo.draw.commitmentOk' : 'ipo.draw.commitmentBad')}</div>
          <div>{t(verdict.winners ? 'ipo.draw.winnersOk' : 'ipo.draw.winnersBad')}</div>
          {verdict.mine !== null && <div>{t(verdict.mine ? 'ipo.draw.mineWon' : 'ipo.draw.mineLost')}</div>}
        </div>
      )}
    </section>
  );
}
