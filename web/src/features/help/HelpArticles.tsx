import { useMemo, useState } from 'react';
import { Alert, Button, Col, Empty, Input, Row, Spin, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { guideRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { errorMessage } from '../../app/errors';
import { usePhone } from '../../ui/useNarrow';
import { articleFor, blocks, inLang, search, type Lang } from './helpLogic';
import './help.css';

/**
 * The guide's articles (docs/help.md): the groups and their articles beside the chosen one, a
 * search over both languages; on a phone the list, then the article with a way back. Opens on
 * the article of `code`, else of the page `path`, else the first.
 */
export function HelpArticles({ code, path }: { code?: string | null; path?: string | null }) {
  const { t, i18n } = useTranslation('help');
  // The guide is written in Chinese and English: the other languages read the English.
  const lang: Lang = i18n.language === 'zh-CN' ? 'zh-CN' : 'en-US';
  const phone = usePhone();
  // The guide changes seldom: read once per session.
  const book = useCall(guideRefs.book, {}, { staleTime: Infinity });
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const all = useMemo(() => book.data ?? [], [book.data]);
  const found = useMemo(() => search(all, query), [all, query]);
  const articles = all.flatMap((g) => g.items);
  const start = (code && articles.find((a) => a.code === code)) || (path && articleFor(all, path)) || (phone ? undefined : articles[0]);
  const current = (chosen && articles.find((a) => a.code === chosen)) || start || undefined;

  if (book.isPending) return <Spin />;
  if (book.isError) return <Alert type="warning" showIcon title={errorMessage(book.error, t)} />;
  if (!articles.length) return <Empty description={t('empty')} />;

  const list = (
    <div className="cw-help-list">
      <Input.Search allowClear placeholder={t('search')} value={query} onChange={(e) => setQuery(e.target.value)} aria-label={t('search')} />
      {found.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noMatch')} />}
      {found.map((g) => (
        <section key={g.code}>
          <Typography.Text type="secondary" className="cw-help-group">
            {inLang(g, lang).name}
          </Typography.Text>
          <ul>
            {g.items.map((a) => (
              <li key={a.code}>
                <a href={`?code=${encodeURIComponent(a.code)}`} className={a.code === current?.code ? 'cw-help-current' : ''} onClick={(e) => (e.preventDefault(), setChosen(a.code))}>
                  {inLang(a, lang).name}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
  const article = current && (
    <article className="cw-help-article" data-code={current.code}>
      {phone && (
        <Button type="link" icon={<ArrowLeftOutlined />} onClick={() => setChosen(null)} style={{ paddingInline: 0 }}>
          {t('back')}
        </Button>
      )}
      <Typography.Title level={4}>{inLang(current, lang).name}</Typography.Title>
      {blocks(inLang(current, lang).content).map((b, i) =>
        b.kind === 'p' ? (
          <Typography.Paragraph key={i}>{b.text}</Typography.Paragraph>
        ) : (
          <ul key={i}>
            {b.items.map((x, j) => (
              <li key={j}>{x}</li>
            ))}
          </ul>
        ),
      )}
      {current.path && (
        <Typography.Link href={current.path}>{t('openPage')}</Typography.Link>
      )}
    </article>
  );
  if (phone) return chosen || code || path ? (article ?? list) : list;
  return (
    <Row gutter={24}>
      <Col span={8}>{list}</Col>
      <Col span={16}>{article}</Col>
    </Row>
  );
}
