import { langs, type Lang } from '@nadi/api/common';
import { Badge, Tabs, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';

/** The ten languages as the console's tabs: English first (the fallback readers see most), then the contract's order. */
export const tabLangs: readonly Lang[] = ['EN', ...langs.filter((lang) => lang !== 'EN')];

/**
 * One tab per language for a text written in the ten languages (notices, product summaries): each
 * tab holds the fields `render(lang)` gives, a filled language's tab is marked, and the languages
 * left empty are listed with what their readers see instead (`fallback`). Every tab is rendered
 * (hidden when not active) so the form validates and sends all of them.
 */
export function LanguageTabs(props: {
  filled: readonly Lang[];
  fallback: string;
  /** The open tab (the form resets it to EN when it opens, and shows the tab of a field that failed validation). */
  active: Lang;
  onActive: (lang: Lang) => void;
  render: (lang: Lang) => ReactNode;
}) {
  const missing = tabLangs.filter((lang) => !props.filled.includes(lang));
  return (
    <>
      <Typography.Paragraph type={missing.length === 0 ? 'success' : 'secondary'}>
        {missing.length === 0 ? (
          'Written in all ten languages.'
        ) : (
          <>
            Missing ({missing.length}):{' '}
            {missing.map((lang) => (
              <Tag key={lang}>{lang}</Tag>
            ))}
            {missing.length === tabLangs.length ? 'Write at least one language.' : `Readers of these see ${props.fallback}.`}
          </>
        )}
      </Typography.Paragraph>
      <Tabs
        activeKey={props.active}
        onChange={(key) => props.onActive(key as Lang)}
        items={tabLangs.map((lang) => ({
          key: lang,
          forceRender: true,
          label: <Badge status={props.filled.includes(lang) ? 'success' : 'default'} text={lang} />,
          children: props.render(lang),
        }))}
      />
    </>
  );
}

/** The language of the first field that failed a form's validation (a name like [field, lang, …]), to open its tab. */
export function langOfError(error: unknown, field: string): Lang | undefined {
  const first = (error as { errorFields?: { name: (string | number)[] }[] } | null)?.errorFields?.[0]?.name;
  return first?.[0] === field && tabLangs.includes(first[1] as Lang) ? (first[1] as Lang) : undefined;
}

/** The missing languages as tags (a list's column). */
export function MissingLangs({ value }: { value: readonly Lang[] }) {
  if (value.length === 0) return <Tag color="green">none</Tag>;
  return (
    <>
      {value.map((lang) => (
        <Tag key={lang} style={{ marginInlineEnd: 2 }}>
          {lang}
        </Tag>
      ))}
    </>
  );
}
