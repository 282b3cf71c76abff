/** The five home styles as cards with a sketch of each layout (homeLayout.ts draws the real one). */
import { Card, Col, Row, Typography } from 'antd';
import { CheckCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { HOME_STYLES, type HomeStyle } from '@coldwatch/contract';

/** Each sketch: rows of blocks, each block a share of the row (of 24), as the style places widgets. */
const SKETCH: Record<HomeStyle, number[][]> = {
  classic: [[5, 5, 5, 5, 4], [14, 10], [10, 14]],
  focus: [[24], [12, 12], [12, 12]],
  grid: [[5, 5, 5, 5, 4], [8, 8, 8], [8, 8, 8]],
  column: [[24], [24], [24]],
  wall: [[5, 5, 5, 5, 4], [12, 12], [12, 12]],
};

export function StylePicker({ value, onChange }: { value: HomeStyle; onChange: (s: HomeStyle) => void }) {
  const { t } = useTranslation('homeset');
  return (
    <Row gutter={[12, 12]} role="radiogroup" aria-label={t('style.title')}>
      {HOME_STYLES.map((s) => (
        <Col key={s} xs={12} md={8} xl={{ flex: '20%' }}>
          <Card
            hoverable
            size="small"
            role="radio"
            aria-checked={value === s}
            tabIndex={0}
            onClick={() => onChange(s)}
            onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onChange(s)}
            className={`cw-homeset-style${value === s ? ' is-chosen' : ''}`}
            data-testid={`home-style-${s}`}
          >
            <div className={`cw-homeset-sketch${s === 'wall' ? ' is-dark' : ''}`}>
              {SKETCH[s].map((row, i) => (
                <div key={i} className="cw-homeset-sketch-row">
                  {row.map((w, j) => (
                    <i key={j} style={{ flex: w }} />
                  ))}
                </div>
              ))}
            </div>
            <Typography.Text strong>
              {value === s && <CheckCircleFilled style={{ color: '#1d6fe0', marginInlineEnd: 6 }} />}
              {t(`style.${s}.name`)}
            </Typography.Text>
            <Typography.Paragraph type="secondary" className="cw-homeset-style-text">
              {t(`style.${s}.text`)}
            </Typography.Paragraph>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
