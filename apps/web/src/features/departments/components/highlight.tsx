import { theme } from 'antd';

/** The text with the first case-insensitive match of keyword emphasised in the theme's primary colour. */
export function Highlight({ text, keyword }: { text: string; keyword: string }) {
  const { token } = theme.useToken();
  const kw = keyword.trim();
  const at = kw ? text.toLowerCase().indexOf(kw.toLowerCase()) : -1;
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <span style={{ color: token.colorPrimary, fontWeight: token.fontWeightStrong }}>{text.slice(at, at + kw.length)}</span>
      {text.slice(at + kw.length)}
    </>
  );
}
