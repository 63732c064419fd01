import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { ruleMetricTitle, RULE_METRICS, RULE_OPERATOR_SIGN, ruleOperatorSchema, type RuleCondition } from '@ads/contracts';
import { Button, Card, Flex, Form, InputNumber, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Lang } from './rule-format';

type Path = (string | number)[];

const WINDOWS = ['today', 'yesterday', 'last_hours', 'last_days', 'lifetime'] as const;

/** A new condition row: the metric people start from most. */
export const blankCondition = (): Partial<RuleCondition> => ({ metric: 'spend', operator: 'gte', value: undefined, window: { type: 'today' } });
export const blankTree = () => ({ match: 'all' as const, groups: [{ match: 'all' as const, conditions: [blankCondition()] }] });

/** N of a window counted in hours or days; shown only for those windows. `path` is the window's place in the form, `name` its place in the list. */
function WindowN({ path, name, label }: { path: Path; name: Path; label: string }) {
  const type = Form.useWatch([...path, 'type']) as string | undefined;
  if (type !== 'last_hours' && type !== 'last_days') return null;
  return (
    <Form.Item name={[...name, 'n']} style={{ marginBottom: 0 }}>
      <InputNumber aria-label={label} min={1} max={type === 'last_hours' ? 72 : 90} precision={0} style={{ width: 70 }} placeholder="N" />
    </Form.Item>
  );
}

/**
 * Groups of conditions (AND/OR between the groups, AND/OR within each): metric, operator, value
 * and window over the metrics the contract allows. `path` is where the tree sits in the form.
 */
export function ConditionsBuilder({ path, lang }: { path: Path; lang: Lang }) {
  const { t } = useTranslation('rules');
  const form = Form.useFormInstance();
  // A counted window starts at 24 hours or 7 days.
  const windowChosen = (at: Path, type: string) => form.setFieldValue([...at, 'n'], type === 'last_hours' ? 24 : type === 'last_days' ? 7 : undefined);
  const metricOptions = RULE_METRICS.map((m) => ({ value: m, label: ruleMetricTitle(m, lang) }));
  const operatorOptions = ruleOperatorSchema.options.map((o) => ({ value: o, label: RULE_OPERATOR_SIGN[o] }));
  const windowOptions = WINDOWS.map((w) => ({ value: w, label: t(`window.${w}`) }));
  const matchOptions = (['all', 'any'] as const).map((m) => ({ value: m, label: t(`match.${m}`) }));
  return (
    <Flex vertical gap={8}>
      <Form.Item label={t('editor.groupsMatch')} name={[...path, 'match']} style={{ marginBottom: 4 }}>
        <Select options={matchOptions} style={{ width: 200 }} aria-label={t('editor.groupsMatch')} />
      </Form.Item>
      <Form.List name={[...path, 'groups']}>
        {(groups, { add: addGroup, remove: removeGroup }) => (
          <>
            {groups.map((g, gi) => (
              <Card
                key={g.key}
                size="small"
                data-testid={`condition-group-${gi}`}
                title={t('editor.group', { n: gi + 1 })}
                extra={
                  groups.length > 1 && (
                    <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('editor.removeGroup')} onClick={() => removeGroup(g.name)} />
                  )
                }
              >
                <Form.Item label={t('editor.groupMatch')} name={[g.name, 'match']} style={{ marginBottom: 8 }}>
                  <Select options={matchOptions} style={{ width: 200 }} aria-label={t('editor.groupMatch')} />
                </Form.Item>
                <Form.List name={[g.name, 'conditions']}>
                  {(conds, { add, remove }) => (
                    <Flex vertical gap={4}>
                      {conds.map((c, ci) => (
                        <Flex key={c.key} gap={6} align="flex-start" wrap data-testid={`condition-${gi}-${ci}`}>
                          <Form.Item name={[c.name, 'metric']} style={{ marginBottom: 0 }}>
                            <Select options={metricOptions} showSearch optionFilterProp="label" style={{ width: 180 }} aria-label={t('editor.metric')} />
                          </Form.Item>
                          <Form.Item name={[c.name, 'window', 'type']} style={{ marginBottom: 0 }}>
                            <Select options={windowOptions} style={{ width: 120 }} aria-label={t('editor.window')} onChange={(type: string) => windowChosen([...path, 'groups', g.name, 'conditions', c.name, 'window'], type)} />
                          </Form.Item>
                          <WindowN path={[...path, 'groups', g.name, 'conditions', c.name, 'window']} name={[c.name, 'window']} label={t('editor.n')} />
                          <Form.Item name={[c.name, 'operator']} style={{ marginBottom: 0 }}>
                            <Select options={operatorOptions} style={{ width: 64 }} aria-label={t('editor.operator')} />
                          </Form.Item>
                          <Form.Item name={[c.name, 'value']} style={{ marginBottom: 0 }}>
                            <InputNumber style={{ width: 120 }} aria-label={t('editor.value')} />
                          </Form.Item>
                          {conds.length > 1 && <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('editor.removeCondition')} onClick={() => remove(c.name)} />}
                        </Flex>
                      ))}
                      {conds.length < 10 && (
                        <Button type="dashed" size="small" icon={<PlusOutlined />} onClick={() => add(blankCondition())} style={{ alignSelf: 'flex-start' }}>
                          {t('editor.addCondition')}
                        </Button>
                      )}
                    </Flex>
                  )}
                </Form.List>
              </Card>
            ))}
            {groups.length < 5 && (
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => addGroup({ match: 'all', conditions: [blankCondition()] })} style={{ alignSelf: 'flex-start' }}>
                {t('editor.addGroup')}
              </Button>
            )}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('editor.valueHelp')}
            </Typography.Text>
          </>
        )}
      </Form.List>
    </Flex>
  );
}
