import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** Shown for a route whose page file is not in this build. */
export default function UnavailablePage() {
  const { t } = useTranslation();
  return <Result status="info" title={t('common:unavailable.title')} subTitle={t('common:unavailable.text')} />;
}
