/**
 * /user/service (non-spec route, docs/glossary.md): the member's customer-service conversation.
 * History over REST (newest page first, "earlier messages" pages back by `beforeId`); live events
 * over the market socket through the worker (src/live/worker-bridge.ts `supportEvents$`): a
 * new message is merged by id, a `resync` reloads the newest page. Sends go over REST
 * (`support/send`: text, or an image uploaded with purpose `support`); replies are marked read
 * while the screen is open.
 */
import { Button, Image, TextArea } from 'antd-mobile';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { SUPPORT_TEXT_MAX, type Conversation, type SupportMessage } from '../../../../contract/support';
import { selectSession } from '../../../api/session';
import { UploadError, uploadImage, uploadObjectUrl } from '../../../api/upload';
import { toastError } from '../../../api/base-query';
import { formatDateTime } from '../../../lib/format';
import { supportEvents$ } from '../support-events';
import { IMAGE_ACCEPT } from '../../../ui/image-picker';
import { fitUnderLimit } from '../../../ui/downscale-image';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import {
  useLazySupportHistoryQuery,
  useSupportReadMutation,
  useSupportSendMutation,
} from '../api/support-api';
import '../support.css';

const PAGE = 30;

/** An image of the conversation, fetched with the session token (uploads are not public). */
function UploadImage({ token, id }: { token: string; id: string }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    uploadObjectUrl(token, id).then(
      (u) => (live ? setSrc((url = u)) : URL.revokeObjectURL(u)),
      () => undefined,
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [token, id]);
  return src ? <Image src={src} alt={t('support.imageAlt')} className="chat-image" fit="contain" /> : null;
}

function Bubble({ m, token }: { m: SupportMessage; token: string }) {
  const { t } = useTranslation();
  const mine = m.from === 'member';
  return (
    <div className={mine ? 'chat-row chat-mine' : 'chat-row'} data-testid={`chat-message-${m.from}`}>
      <div className="chat-bubble">
        {m.uploadId && <UploadImage token={token} id={m.uploadId} />}
        {m.text && <div className="chat-text">{m.text}</div>}
      </div>
      <div className="chat-meta muted small">
        {mine ? t('support.me') : t('support.operator')} · {formatDateTime(m.createdAt)}
      </div>
    </div>
  );
}

/** Messages by id, oldest first. */
function merge(held: SupportMessage[], more: SupportMessage[]): SupportMessage[] {
  const byId = new Map(held.map((m) => [m.id, m]));
  for (const m of more) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

function Chat({ token }: { token: string }) {
  const { t } = useTranslation();
  const [messages, setMessages] = useState<SupportMessage[]>([]);
  const [conversation, setConversation] = useState<Conversation | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [fetchHistory] = useLazySupportHistoryQuery();
  const [send] = useSupportSendMutation();
  const [markRead] = useSupportReadMutation();
  const end = useRef<HTMLDivElement>(null);
  const file = useRef<HTMLInputElement>(null);

  const loadNewest = useCallback(async () => {
    const r = await fetchHistory({ limit: PAGE })
      .unwrap()
      .catch(() => null);
    if (!r) return;
    setMessages((held) => merge(held, r.items));
    setConversation(r.conversation);
    setHasMore(r.hasMore);
    if (r.conversation?.memberUnread) void markRead();
  }, [fetchHistory, markRead]);

  const loadOlder = useCallback(async () => {
    const oldest = messages[0]?.id;
    const r = await fetchHistory({ limit: PAGE, beforeId: oldest })
      .unwrap()
      .catch(() => null);
    if (!r) return;
    setMessages((held) => merge(held, r.items));
    setHasMore(r.hasMore);
  }, [fetchHistory, messages]);

  useEffect(() => {
    void loadNewest();
    const sub = supportEvents$(token).subscribe((e) => {
      if (e.event === 'resync') return void loadNewest();
      if (e.conversation) setConversation(e.conversation);
      if (e.message) {
        setMessages((held) => merge(held, [e.message!]));
        if (e.message.from === 'operator') void markRead();
      }
    });
    return () => sub.unsubscribe();
  }, [token, loadNewest, markRead]);

  const last = messages[messages.length - 1]?.id;
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [last]);

  const post = useCallback(
    async (body: { text?: string; uploadId?: string }) => {
      setBusy(true);
      try {
        const r = await send(body).unwrap();
        setMessages((held) => merge(held, [r.message]));
        setConversation(r.conversation);
        return true;
      } catch {
        return false; // the base query showed the refusal
      } finally {
        setBusy(false);
      }
    },
    [send],
  );

  const submit = async () => {
    const body = text.trim();
    if (!body) return;
    if (await post({ text: body })) setText('');
  };

  const pick = async (f: File | undefined) => {
    if (!f) return;
    setBusy(true);
    try {
      // A photo over the limit is made smaller first (src/ui/downscale-image.ts), not refused.
      const fitted = await fitUnderLimit(f);
      if (!fitted) throw new UploadError('fileTooLarge');
      const up = await uploadImage(token, 'support', fitted);
      await post({ uploadId: up.id });
    } catch (e) {
      toastError(e instanceof UploadError ? e.msg : 'uploadFailed');
    } finally {
      setBusy(false);
      if (file.current) file.current.value = '';
    }
  };

  const rows = useMemo(
    () => messages.map((m) => <Bubble key={m.id} m={m} token={token} />),
    [messages, token],
  );
  return (
    <div className="chat">
      <div className="chat-list" data-testid="chat-list">
        {hasMore && (
          <Button size="mini" fill="none" onClick={() => void loadOlder()} data-testid="chat-older">
            {t('support.older')}
          </Button>
        )}
        {messages.length === 0 && <div className="chat-empty muted">{t('support.empty')}</div>}
        {rows}
        {conversation?.status === 'resolved' && (
          <div className="chat-resolved muted small" data-testid="chat-resolved">
            {t('support.resolved')}
          </div>
        )}
        <div ref={end} />
      </div>
      <div className="chat-input">
        <input
          ref={file}
          type="file"
          accept={IMAGE_ACCEPT}
          hidden
          data-testid="chat-file"
          onChange={(e) => void pick(e.target.files?.[0])}
        />
        <Button size="small" fill="outline" disabled={busy} onClick={() => file.current?.click()}>
          {t('support.image')}
        </Button>
        <TextArea
          value={text}
          onChange={setText}
          placeholder={t('support.placeholder')}
          autoSize={{ minRows: 1, maxRows: 4 }}
          maxLength={SUPPORT_TEXT_MAX}
          className="chat-textarea"
          data-testid="chat-text"
        />
        <Button
          size="small"
          color="primary"
          disabled={busy || !text.trim()}
          onClick={() => void submit()}
          data-testid="chat-send"
        >
          {t('support.send')}
        </Button>
      </div>
    </div>
  );
}

export function ServicePage() {
  const { t } = useTranslation();
  const { token } = useSelector(selectSession);
  return <Page title={t('support.title')}>{token ? <Chat token={token} /> : <LoginPrompt />}</Page>;
}
