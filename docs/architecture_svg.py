"""Writes docs/architecture.svg, the picture in docs/architecture.md: python3 docs/architecture_svg.py"""
import os
import math
W,H=1180,960
out=[]
def e(s): out.append(s)
def esc(t): return t.replace('&','&amp;').replace('<','&lt;').replace('>','&gt;')
def box(x,y,w,h,cls,name,lines,small=None):
    e(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" class="{cls}"/>')
    e(f'<text x="{x+12}" y="{y+21}" class="name">{esc(name)}</text>')
    for i,l in enumerate(lines):
        e(f'<text x="{x+12}" y="{y+39+i*15}" class="text">{esc(l)}</text>')
    if small:
        e(f'<text x="{x+12}" y="{y+39+len(lines)*15+2}" class="small">{esc(small)}</text>')
def arrow(pts,color='#1f6fd1',width=3,label=None,lx=None,ly=None,lcls='flowlabel',dash=None):
    d='M'+' L'.join(f'{x},{y}' for x,y in pts)
    # shorten last segment by head length
    (x1,y1),(x2,y2)=pts[-2],pts[-1]
    L=math.hypot(x2-x1,y2-y1); ux,uy=(x2-x1)/L,(y2-y1)/L
    hl=11 if width>=2.5 else 9; hw=6 if width>=2.5 else 5
    bx,by=x2-ux*hl,y2-uy*hl
    pts2=pts[:-1]+[(bx,by)]
    d='M'+' L'.join(f'{x:.1f},{y:.1f}' for x,y in pts2)
    da=f' stroke-dasharray="{dash}"' if dash else ''
    e(f'<path d="{d}" fill="none" stroke="{color}" stroke-width="{width}"{da}/>')
    px,py=-uy,ux
    e(f'<polygon points="{x2:.1f},{y2:.1f} {bx+px*hw:.1f},{by+py*hw:.1f} {bx-px*hw:.1f},{by-py*hw:.1f}" fill="{color}"/>')
    if label: e(f'<text x="{lx}" y="{ly}" class="{lcls}">{esc(label)}</text>')

e(f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">')
e('''<style>
  .box { fill: #ffffff; stroke: #40505f; stroke-width: 1.5; }
  .gui { fill: #eef6ee; stroke: #3c7a3c; stroke-width: 1.5; }
  .pure { fill: #f2f5fb; stroke: #40505f; stroke-width: 1.5; }
  .native { fill: #fff4e8; stroke: #b85c00; stroke-width: 1.5; }
  .planned { fill: #fbfbf2; stroke: #8a7a00; stroke-width: 1.5; stroke-dasharray: 6 4; }
  .side { fill: #f7f7f7; stroke: #888; stroke-width: 1.2; }
  .seam { fill: #ffffff; stroke: #b85c00; stroke-width: 1; }
  .name { font-size: 15px; font-weight: bold; fill: #1d2630; }
  .text { font-size: 11.5px; fill: #333; }
  .small { font-size: 10.5px; fill: #555; }
  .title { font-size: 19px; font-weight: bold; fill: #1d2630; }
  .flowlabel { font-size: 11px; fill: #1f6fd1; font-style: italic; }
  .tracelabel { font-size: 11px; fill: #b85c00; font-style: italic; }
  .band { font-size: 10px; fill: #8a96a3; letter-spacing: 1px; }
</style>''')
e(f'<rect x="0" y="0" width="{W}" height="{H}" fill="#ffffff"/>')
e('<text x="30" y="34" class="title">Fabricscope: the flow of a reading and the packages (dev.fabricscope.*)</text>')
e('<text x="30" y="54" class="small">Blue arrows: how a reading travels from the machine to the user. Which package may depend on which: docs/architecture.md, enforced by ArchitectureTest and AppArchitectureTest.</text>')
A,B,C=150,370,590; CW=200
rows={'GUI':75,'ENTRY':165,'USE CASES':255,'OUTPUT':345,'DECIDE':445,'SNAPSHOT':545,'READ':630,'SEAMS':725,'MACHINE':855}
for k,y in rows.items(): e(f'<text x="30" y="{y+22}" class="band">{k}</text>')
# GUI
box(C,75,CW,62,'gui','app.view',['JavaFX views: bind and lay','out only (MainView, …)'])
# ENTRY
box(A,165,CW+220,62,'box','cli',['picocli commands and Main: parse, call a use case,','print safely (exit codes in every --help)'])
box(C,165,CW,62,'gui','app.viewmodel',['state, commands, exports;','task-executor seam'])
box(840,165,320,62,'gui','app',['Launcher (window or command line),','FabricscopeApp: the composition root'])
# USE CASES
box(A,255,640,62,'box','usecase',['Advise · MakeReport · Compare · InspectCluster · RunCheck · OpenSnapshot: requests in, results out;','the one implementation that the CLI commands and the view-models call; machine access injected'])
# OUTPUT
box(A,345,CW,70,'box','cluster',['analysis at the root; read:','folders; collect: srun, pdsh'])
box(B,345,CW,70,'pure','report',['JSON, Markdown, HTML;','redaction, diff'])
box(C,345,CW,70,'pure','render',['text renderers; .fabric:','drawing; .rack; .raster'])
# DECIDE
box(A,445,CW,70,'native','check · check.api',['runners on the GPUs, in a child','process; api: results, logic'])
box(B,445,CW,70,'pure','advisor',['framework rules → verdicts','(docs/backend-rules.md)'])
box(C,445,CW,70,'pure','topology',['links, switch inference,','NVLink specs, PCIe, analysis'])
# SNAPSHOT
box(A,545,640,55,'pure','model',['the immutable MachineSnapshot: every reading is a value or why it is missing'])
# READ
box(A,630,CW+220,62,'native','probe',['LiveProbe, HostProbe, PythonStackProbe, TraceReplay:','take the readings, build the snapshot'])
box(C,630,CW,62,'box','samples',['bundled machines: captured','and synthetic snapshots'])
# SEAMS
e(f'<rect x="{A}" y="725" width="640" height="100" rx="6" class="native"/>')
e(f'<text x="{A+12}" y="746" class="name">nativeapi</text>')
e(f'<text x="{A+100}" y="746" class="text">the probe and check seams, the only place JNA is used; a failed call is a typed result</text>')
for i,(n,b) in enumerate([('NvmlCalls','JnaNvml'),('Cuda{Probe,Check}Calls','Cuda{Probe,Check}Jna'),('Nccl{,Check}Calls','JnaNccl, NcclCheckJna'),('HostCalls, CheckHostCalls','FileHost: /proc, /sys, …')]):
    x=A+12+i*156
    e(f'<rect x="{x}" y="760" width="148" height="50" rx="4" class="seam"/>')
    e(f'<text x="{x+10}" y="780" class="text">{n}</text>')
    e(f'<text x="{x+10}" y="797" class="small">{esc(b)}</text>')
# MACHINE
box(A,855,640,55,'side','the machine',['libnvidia-ml.so.1 · libcuda.so.1 · libnccl.so.2 · /proc /sys /etc /dev · environment'])
# trace
box(840,725,320,100,'native','trace.json',['probe|check --record: every seam call with','its arguments, return code and raw answer;','--replay: the unchanged probe or check over','those answers, on any machine, no GPU'])
arrow([(790,752),(838,752)],color='#b85c00',width=1.8,label='record',lx=796,ly=746,lcls='tracelabel')
arrow([(840,800),(792,800)],color='#b85c00',width=1.8,label='replay',lx=798,ly=815,lcls='tracelabel')
# json/io
box(840,445,320,100,'side','json · io · text',['json: the Jackson mapper and record binding;','io: snapshot, report and trace files read as','untrusted (usecase.OpenSnapshot), written safely;','text: the one sanitiser every layer may use'])
# legend
e('<rect x="840" y="255" width="320" height="140" rx="6" fill="#ffffff" stroke="#cccccc"/>')
e('<text x="854" y="276" class="name">Legend</text>')
for i,(cls,t) in enumerate([('pure','pure: no I/O, no native calls'),('native','reaches the machine through the seams'),('gui','desktop app (JavaFX, MVVM)'),('box','other')]):
    y=288+i*21
    e(f'<rect x="854" y="{y}" width="26" height="14" class="{cls}"/>')
    e(f'<text x="890" y="{y+11}" class="text">{t}</text>')
arrow([(854,380),(882,380)])
e('<text x="890" y="384" class="text">a reading, a result, a verdict</text>')

# flows
arrow([(A+100,855),(A+100,827)])                       # machine -> seams
arrow([(A+210,725),(A+210,694)],label='readings',lx=A+218,ly=714)  # seams -> probe
arrow([(A+210,630),(A+210,602)],label='snapshot',lx=A+218,ly=621)  # probe -> model
arrow([(C+100,630),(C+100,602)],label='snapshot',lx=C+108,ly=621)  # samples -> model
arrow([(815,495),(815,573),(792,573)],color='#1f6fd1',width=3)    # io -> model
e('<text x="800" y="592" class="flowlabel">saved</text>')
arrow([(840,495),(815,495)],color='#1f6fd1',width=3)
arrow([(B+100,545),(B+100,517)])                       # model -> advisor
arrow([(C+100,545),(C+100,517)])                       # model -> topology
arrow([(C,480),(B+CW+2,480)])        # topology -> advisor
arrow([(A,790),(132,790),(132,500),(A-1,500)],color='#1f6fd1',width=3)  # seams -> check
arrow([(B+100,445),(B+100,417)],label='verdicts',lx=B+108,ly=436)  # advisor -> report
arrow([(A+150,445),(A+150,431),(B+30,431),(B+30,417)],label='results',lx=A+84,ly=440)  # check -> report
arrow([(C+100,445),(C+100,417)],label='fabric',lx=C+108,ly=436)   # topology -> render
arrow([(A+100,345),(A+100,319)])   # cluster -> usecase
arrow([(B+100,345),(B+100,319)])   # report -> usecase
arrow([(C+100,345),(C+100,319)])   # render -> usecase
arrow([(A+150,255),(A+150,229)])   # usecase -> cli
arrow([(C+100,255),(C+100,229)])   # usecase -> viewmodel
arrow([(C+100,165),(C+100,139)])   # viewmodel -> view
e('</svg>')
open(os.path.join(os.path.dirname(os.path.abspath(__file__)),'architecture.svg'),'w').write('\n'.join(out)+'\n')
