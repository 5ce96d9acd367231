// The only door to echarts: only the chart pieces the dashboards draw (bars, lines, their grid,
// tooltip and legend, drawn as SVG), so the chunk stays small. Imported dynamically by EChart.tsx
// alone, so no other page loads it.
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export { init };
